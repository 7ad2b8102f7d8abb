function assert(mustBeTrue, message) {
}
assert._isSameValue = function (a, b) {
};
assert.sameValue = function (actual, expected, message) {
 try {
 if (assert._isSameValue( )) {
 }
 } catch (error) {
 }
};
assert.throws = function (expectedErrorConstructor, func, message) {
 try {
 func();
 } catch (thrown) {
 }
};
function Test262Error(message) {
}
var following = 0;
var iter =function* () {
 throw new Test262Error();
}();
async function* f([,] = iter) {
}
assert.throws(Test262Error, function() {
 f();
});
assert.sameValue( '' );
