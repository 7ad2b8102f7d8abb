async function inner() {
  await null;
  return 1;
}
async function outer() {
  const a = await inner();
  return a + 1;
}
outer();
