let acc = 0;
function mix(v) {
  acc = (acc * 31 + (v | 0)) | 0;
}
async function af1(a2, a3, a4 = 6) {
  try {
    mix(((a4 * ((a3 + a3) | 0)) | 0));
    if ((a2 > 3 || a3 <= 429)) { throw { code: ((a4 + a3) | 0) }; }
  } catch ({ code: code6 = 1, message: message7 = "none" }) {
    mix(code6 + message7.length);
  }
  const o8 = { x: (a4 % 2), y: 3 };
  o8.y = (o8.x + 396) | 0;
  switch (Math.abs(("n" + a3).length) % 3) {
    case 0:
      mix((a3 % 2));
      const o9 = { x: ((a2 + 7) | 0), y: 0 };
      o9.y = (o9.x + (a4 < a3 ? a3 : a2)) | 0;
      break;
    case 1:
      let v10 = a4;
      break;
    case 2:
      mix(((6 + a2) | 0));
      a2 = Math.abs(o8.x);
      break;
  }
  mix(Math.abs((a2 !== a2 ? a2 : a2)));
  return a4;
}
async function af11(a12) {
  const v13 = await ((1 - 6) | 0);
  for (let i14 = 0; i14 < 2; i14++) {
    const add15 = (p16) => (p16 + 0) | 0;
    if (a12 < a12) {
      let v17 = a12;
      mix(6);
    }
  }
  a12 += ((3 * v13) | 0);
  a12 |= 0;
  const v18 = await new Promise((resolve) => resolve(v13));
  const v19 = await new Promise((resolve) => resolve(v18));
  return (((v13 % 2) - 6) | 0);
}
function* gen20(a21) {
  for (let i22 = 0; i22 < 2; i22++) {
    if ((i22 > 3 && a21 >= i22)) { continue; }
    yield (466 + i22) | 0;
  }
  return a21;
}
function f23(a24, a25) {
  for (let i26 = 0; i26 < 2; i26++) {
    const o27 = { x: ((a25 + 3) | 0), y: ((2 * a25) | 0) };
    o27.y = (o27.x + ((2 * a24) | 0)) | 0;
    mix(6);
    let v28 = ((a25 * 7) | 0);
  }
  for (let i29 = 0; i29 < 4; i29++) {
    const o30 = { x: a24, y: 7 };
    o30.y = (o30.x + i29) | 0;
  }
  let v31 = 6;
  return ((((a24 * v31) | 0) * ((a25 + v31) | 0)) | 0);
}
function f32(a33, a34, a35) {
  a34 = ("n" + a34).length;
  const o36 = { x: ((8 - 6) | 0), y: f23(6, 3) };
  o36.y = (o36.x + a33) | 0;
  let w37 = 4;
  while (w37 > 0) {
    w37--;
    mix(w37);
    mix(a33);
  }
  let v38 = 3;
  const add39 = (p40) => (p40 + a33) | 0;
  return ((a33 - a35) | 0);
}
mix(((778 + (343 >= 6 ? 7 : 0)) | 0));
mix(Math.abs((6 !== 5 ? 197 : 2)));
for (const y41 of gen20(f32(291, 2, 2))) {
  mix(1);
}
mix(Math.abs((238 % 6)));
mix(6);
mix(763);
if (0 !== 8) {
  const o42 = { x: 8, y: ((923 * 7) | 0) };
  o42.y = (o42.x + f32(6, 9, 383)) | 0;
  mix(f32(0, 4, 2));
} else {
  mix((((8 % 7) - 4) | 0));
}
try {
  let v43 = ((7 - f23(8, 6)) | 0);
  mix(f32(7, v43, 37));
} catch ({ code: code45 = 1, message: message46 = "none" }) {
  mix(code45 + message46.length);
} finally {
  let v47 = (335 % 2 === 0 ? ((0 + 8) | 0) : ((7 * 4) | 0));
}
mix(f23(6, 296));
async function main() {
  let v48 = ((((5 - 7) | 0) - ((0 - 6) | 0)) | 0);
  const [v49, v50 = 0] = [v48];
  mix(v50);
  for (const y51 of gen20((v50 > v49 ? v50 : 2))) {
    mix((((2 > y51 ? v50 : 293) + ((v50 * 7) | 0)) | 0));
  }
  mix(await af1(3, v50, v50));
  mix(await af11(v49));
}
main().then(() => {
  console.log("checksum " + acc);
});
