function assert(mustBeTrue, message) {
}
assert.throws = function (expectedErrorConstructor, func, message) {
 try {
 func();
 } catch (thrown) {
 }
};
class Base {}
assert.throws(ReferenceError, function() {
 class C extends Base {
 constructor() {
 super(this.x);
 }
 } new C();
});
