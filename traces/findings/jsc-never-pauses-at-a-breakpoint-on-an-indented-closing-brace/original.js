class C1 {
  constructor(start) {
    this.base = start + C1.name.length;
  }
  m() {
    this.base = 2;
  }
}
function outer() {
  function h() {
    return 1;
  }
  h();
}
new C1(3).m();
outer();
console.log(1);
