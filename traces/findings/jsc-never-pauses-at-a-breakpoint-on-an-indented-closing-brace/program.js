class C1 {
 constructor(start) {
 this.base = start + C1.name.length;
 }
 m() {
 }
}
function outer() {
 h();
}
new C1(3).m();
outer();
