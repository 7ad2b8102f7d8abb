



















































function assert(mustBeTrue, message) {
}
assert.throws = function (expectedErrorConstructor, func, message) {
 if (message === undefined) {
 } else {
 }
 try {
 func();
 } catch (thrown) {
 }
};
var Base = function() {}.bind();
assert.throws(TypeError, function() {
 class C extends Base {}
});
