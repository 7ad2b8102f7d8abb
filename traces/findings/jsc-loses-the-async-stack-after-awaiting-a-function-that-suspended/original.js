async function inner(x) {
  const y = x + 1;
  await null;
  return y * 2;
}
async function outer() {
  const a = await inner(3);
  return a + 1;
}
outer().then(function done(r) {
  console.log("r", r);
});
