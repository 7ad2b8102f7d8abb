async function load(n) {
  const got = await n;
  return got;
}
load(0);
