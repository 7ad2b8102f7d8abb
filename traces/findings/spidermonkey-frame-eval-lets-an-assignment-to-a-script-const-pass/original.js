let acc = 0;
function mix(v) {
  acc = (acc * 31 + (v | 0)) | 0;
}
async function af1(a2 = 2) {
  mix(7);
  a2 += ((a2 + ("n" + a2).length) | 0);
  a2 |= 0;
  let w3 = 2;
  while (w3 > 0) {
    w3--;
    mix(("n" + Math.abs(a2)).length);
  }
  let v4 = a2;
  for (let i5 = 0; i5 < 1; i5++) {
    let v6 = i5;
    if (w3 % 2 === 0) { continue; }
    let v7 = 2;
  }
  return a2;
}
function* gen8(a9) {
  for (let i10 = 0; i10 < 3; i10++) {
    if (a9 !== a9) { continue; }
    yield ((8 <= 9 ? a9 : 2) + i10) | 0;
  }
  return a9;
}
function f11(a12, a13) {
  mix(((Math.abs(987) * ((5 * 4) | 0)) | 0));
  let v14 = 0;
  mix((((a12 + a13) | 0) % 5));
  let v15 = v14;
  if ((v15 > 3 || v14 <= 9)) { throw new Error("f" + a12); }
  return ((v15 - 3) | 0);
}
class C1 {
  #count = 873;
  static made = 0;
  static {
    this.made = 1;
  }
  constructor(start) {
    this.base = start | 0;
    C1.made++;
  }
  get total() {
    return (this.base + this.#count) | 0;
  }
  set total(v) {
    this.base = v | 0;
  }
  #scaled(n) {
    return (n * 4) | 0;
  }
  bump(n) {
    this.#count = (this.#count + this.#scaled(n)) | 0;
    return this.#count;
  }
}
class C2 extends C1 {
  constructor(start) {
    super(start + 1);
    this.extra = 2;
  }
  bump(n) {
    const r = super.bump(n + this.extra);
    return (r - 1) | 0;
  }
}
mix(6);
const v16 = ((7 - 142) | 0);
if (v16 !== ((8 * v16) | 0)) {
  mix((v16 > v16 ? Math.abs(v16) : 835));
  switch (Math.abs(((3 - v16) | 0)) % 2) {
    case 0:
      try {
        mix(9);
        mix(((v16 - ((470 + v16) | 0)) | 0));
        if (v16 <= v16) { throw { code: 1 }; }
        if (v16 !== v16) { throw { code: 790 }; }
      } catch (err17) {
        mix(err17 instanceof Error ? err17.message.length : err17.code);
      }
    case 1:
      try {
        const c18 = new C1((v16 === 3 ? v16 : 6));
        mix(("n" + ((v16 - v16) | 0)).length);
        if ((v16 > 3 && v16 > 895)) { throw { code: v16 }; }
      } catch (err19) {
        mix(err19 instanceof Error ? err19.message.length : err19.code);
      } finally {
        let v20 = v16;
      }
      try {
        const o21 = { x: (v16 !== v16 ? v16 : v16), y: ((v16 - 5) | 0) };
        o21.y = (o21.x + ((v16 + v16) | 0)) | 0;
        let v22 = o21.y;
        mix(f11(v22, v16));
      } catch (err23) {
        mix(err23 instanceof Error ? err23.message.length : err23.code);
      } finally {
        mix((5 % 5));
      }
      break;
  }
} else {
  for (let i24 = 0; i24 < 2; i24++) {
    mix(2);
  }
  const add25 = (p26) => (p26 + ("n" + 6).length) | 0;
}
const add27 = (p28) => (p28 + Math.abs(v16)) | 0;
mix(((v16 + ((v16 * 8) | 0)) | 0));
mix(((("n" + v16).length * ((v16 - 9) | 0)) | 0));
const c29 = new C2(((6 - v16) | 0));
mix(c29.bump(((6 - v16) | 0)));
for (const y30 of gen8(((v16 + v16) | 0))) {
  mix(y30);
}
async function main() {
  for (const y31 of gen8(add27(c29.total))) {
    mix(((((6 + v16) | 0) - y31) | 0));
  }
  let v32 = 8;
  mix(((("n" + v16).length + c29.total) | 0));
  const v33 = await new Promise((resolve) => resolve((v16 % 2)));
  mix(v32);
  const { p: [v34 = 6] = [], q: { r: v35 = 3 } = {} } = { p: [v16] };
  for (let i36 = 0; i36 < 4; i36++) {
    const v37 = 888;
  }
  mix(await af1(v34));
}
main().then(() => {
  console.log("checksum " + acc);
});
