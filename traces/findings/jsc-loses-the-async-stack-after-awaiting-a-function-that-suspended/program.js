async function inner(x) {
 await null;
}
async function outer() {
 const a = await inner(3);
 return a + 1;
}
outer().then(
 );
