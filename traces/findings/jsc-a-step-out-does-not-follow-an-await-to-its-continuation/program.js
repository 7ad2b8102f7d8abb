async function inner() {
}
async function outer() {
 const a = await inner();
 return a + 1;
}
outer();
