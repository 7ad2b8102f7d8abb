function f(a) {
 try {
 throw { code: a };
 } catch (e) {
 }
}
f(1);
