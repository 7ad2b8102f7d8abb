"use strict";
function assert(mustBeTrue, message) {
}
assert.sameValue = function (actual, expected, message) {
};
assert.sameValue(
 eval('1; do { if (true) { break; } else { } } while (false)'), undefined
);
