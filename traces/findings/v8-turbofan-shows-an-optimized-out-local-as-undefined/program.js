function mix(v) {
}
function f5(a6) {
 try {
 try {
 let v13 = (((a6 * a6) | 0) % 3);
 mix(3);
 mix(f1(a6, 2, v11));
 } catch (err14) {
 }
 } catch ({ code: code17 = 1, message: message18 = "none" }) {
 }
}
mix(1);
mix(((f5(1) + 4) | 0));
