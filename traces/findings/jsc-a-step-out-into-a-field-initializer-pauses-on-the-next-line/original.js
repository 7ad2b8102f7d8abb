class C {
  x = f(306);
  static made = 0;
  constructor() {
    this.y = 1;
  }
}
function f(n) {
  return n;
}
var v = 0;
const c = new C();
