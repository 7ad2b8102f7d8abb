class C {
 x = f(306);
 static made = 0;
 constructor() {
 }
}
function f(n) {
  return n;
}
const c = new C();
