function thrower() {
  try { throw new Error("x"); } catch (e) {}
}
function f() {
  thrower();
  return 1;
}
async function settle() {}
async function main() {
  let v = 0;
  v += 1;
  await settle();
  v += 2;
  v += 3;
}
f();
main();
