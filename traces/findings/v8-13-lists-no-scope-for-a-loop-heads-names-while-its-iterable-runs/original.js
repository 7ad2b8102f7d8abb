let acc = 0;
function mix(v) {
  acc = (acc * 31 + (v | 0)) | 0;
}
class C1 {
  #count = 5;
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
function* gen1(a2) {
  for (let i3 = 0; i3 < 2; i3++) {
    yield (58 + i3) | 0;
  }
  return a2;
}
mix(((942 - 5) | 0));
mix((1 >= 5 ? ((7 + 3) | 0) : ((3 + 2) | 0)));
mix(((3 - (1 % 2 === 0 ? 9 : 2)) | 0));
for (const y4 of gen1(5)) {
  mix(y4);
}
mix(2);
if (((755 - 5) | 0) !== 550) {
  for (let i5 = 0; i5 < 4; i5++) {
    const add6 = (p7) => (p7 + 9) | 0;
  }
  try {
    const add8 = (p9) => (p9 + ((p9 * p9) | 0)) | 0;
    let v10 = (7 % 5);
    v10 += v10;
    v10 |= 0;
    if ((v10 > 3 || v10 <= v10)) { throw new Error("e" + ((v10 - 6) | 0)); }
  } catch (err11) {
    mix(err11 instanceof Error ? err11.message.length : err11.code);
  }
  let v12 = 5;
} else {
  mix(6);
  const c13 = new C2(((13 - 9) | 0));
}
const { p: [v14 = 453] = [], q: { r: v15 = 0 } = {} } = { p: [(2 >= 4 ? 0 : 2)] };
const c16 = new C1(Math.abs(1));
mix(c16.bump(Math.abs(1)));
console.log("checksum " + acc);
