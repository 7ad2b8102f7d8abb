async function load(n) {
 const got = await n;
}
load(0);
