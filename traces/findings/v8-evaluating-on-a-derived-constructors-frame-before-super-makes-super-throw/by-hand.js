class B {}
class C extends B {
  constructor() {
    var f = () => super();
    debugger;
    f();
  }
}
try { new C(); console.log("constructed"); } catch (e) { console.log("threw", e.message); }
