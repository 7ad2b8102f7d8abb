let acc = 0;
function mix(v) {
  acc = (acc * 31 + (v | 0)) | 0;
}
async function af1(a2) {
  mix(7);
  mix(((("n" + 4).length * ((a2 * 6) | 0)) | 0));
  mix(("n" + 967).length);
  return 1;
}
class C1 {
  #count = 979;
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
    return (n * 2) | 0;
  }
  bump(n) {
    this.#count = (this.#count + this.#scaled(n)) | 0;
    return this.#count;
  }
}
function* gen3(a4) {
  for (let i5 = 0; i5 < 1; i5++) {
    yield (1 + i5) | 0;
  }
  return a4;
}
const { x: v6, y: v7 = 5 } = { x: 3 };
if ((v6 > 3 || 7 >= 6)) {
  let v8 = ("n" + v6).length;
} else {
  let v9 = 8;
}
mix(((((1 - v7) | 0) * Math.abs(v7)) | 0));
outer10: for (let i11 = 0; i11 < 2; i11++) {
  for (let j12 = 0; j12 < 2; j12++) {
    if (j12 % 2 === 0) { continue outer10; }
    mix(8);
  }
  mix(((i11 > 3 && i11 <= 0) ? 4 : ((7 * 6) | 0)));
}
let v13 = 2;
let v14 = 1;
mix(6);
const o15 = { x: v14, y: 6 };
o15.y = (o15.x + ("n" + v13).length) | 0;
v14 = 2;
const { x: v16, y: v17 = 1 } = { x: v6 };
for (const y18 of gen3((v13 >= v16 ? v17 : v13))) {
  mix(((((v6 * v17) | 0) - Math.abs(v6)) | 0));
}
const c19 = new C1(3);
mix(c19.bump(3));
async function main() {
  mix((((v17 > v17 ? 1 : v13) + (await af1(v16))) | 0));
  let v20 = v17;
  if (v17 >= ((v13 - 3) | 0)) {
    if ((v6 > 3 && v7 > c19.total)) {
      mix((await af1(v20)));
      mix((await af1(o15.x)));
      const v21 = ((v7 + (v20 % 2)) | 0);
    } else {
      mix((v7 !== v7 ? (v16 % 7) : ((v14 + 8) | 0)));
      const o22 = { x: (v6 > v6 ? c19.total : v7), y: 5 };
      o22.y = (o22.x + (await af1(v16))) | 0;
    }
    const c23 = new C1(((v20 + v17) | 0));
    mix(Math.abs((await af1(v6))));
  } else {
    mix((((await af1(v20)) + 3) | 0));
  }
  const c24 = new C1(v14);
  mix(await af1(v16));
}
main().then(() => {
  console.log("checksum " + acc);
});
