let acc = 0;
function mix(v) {
  acc = (acc * 31 + (v | 0)) | 0;
}
function f1(a2, a3, a4 = 8) {
  mix(5);
  a4 = 746;
  return 4;
}
function f5(a6) {
  for (let i7 = 0; i7 < 1; i7++) {
    let v8 = ("n" + ((i7 + 8) | 0)).length;
    let w9 = 1;
    while (w9 > 0) {
      w9--;
      let v10 = ((f1(a6, i7, 6) - 6) | 0);
      mix(7);
    }
  }
  const [v11, v12 = 2] = [f1(a6, a6, a6)];
  try {
    try {
      let v13 = (((a6 * a6) | 0) % 3);
      mix(3);
      mix(3);
      mix(f1(a6, 2, v11));
    } catch (err14) {
      mix(err14 instanceof Error ? err14.message.length : err14.code);
    }
    mix(("n" + ((v12 - v12) | 0)).length);
    for (let i15 = 0; i15 < 4; i15++) {
      mix(((v12 - 9) | 0));
      a6 += ((((7 + v12) | 0) + (a6 < v11 ? a6 : 0)) | 0);
      a6 |= 0;
    }
    mix(f1(5, v12, a6));
  } catch ({ code: code17 = 1, message: message18 = "none" }) {
    mix(code17 + message18.length);
  }
  mix(v11);
  return v11;
}
switch (Math.abs(((7 - 1) | 0)) % 3) {
  case 0:
    const add19 = (p20) => (p20 + ((p20 + p20) | 0)) | 0;
    break;
  case 1:
    let v21 = ((f1(9, 8, 0) - 0) | 0);
    mix(Math.abs(v21));
    break;
  case 2:
    const v22 = 0;
    const o23 = { x: ((v22 - -48) | 0), y: v22 };
    o23.y = (o23.x + f1(v22, v22, 3)) | 0;
    break;
}
mix(1);
mix(((f5(1) + 4) | 0));
mix(0);
mix(69);
switch (Math.abs(3) % 2) {
  case 0:
    const o24 = { x: 4, y: (9 % 2 === 0 ? 9 : 4) };
    o24.y = (o24.x + ((9 - 4) | 0)) | 0;
    const add25 = (p26) => (p26 + ((p26 + 8) | 0)) | 0;
    break;
  case 1:
    if (((902 * 0) | 0) < 9) {
      mix(985);
      let v27 = 6;
    }
    mix(f1(9, 1, 6));
    break;
  default:
    mix(4);
}
mix((0 % 2 === 0 ? Math.abs(5) : 1));
console.log("checksum " + acc);
