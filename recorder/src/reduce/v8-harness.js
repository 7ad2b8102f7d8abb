// Shared by morphtrace's V8 coverage reproducers (pasted into each: a bundle stands alone).
const read = (f) => fs.readFileSync(path.join(here, f), 'utf8');
const prelude = fs.existsSync(path.join(here, 'prelude.js')) ? read('prelude.js') : null;
const session = new inspector.Session();
session.connect();
const post = (m, p = {}) => new Promise((ok, fail) => session.post(m, p, (e, r) => (e ? fail(e) : ok(r))));

// Runs a script in a fresh context; what it printed and whether it threw.
function run(file, sandbox) {
  const out = [];
  sandbox.console = { log: (...a) => out.push(a.join(' ')), info() {}, debug() {}, warn() {}, error() {}, trace() {} };
  const ctx = vm.createContext(sandbox);
  let threw = null;
  try {
    if (prelude !== null) vm.runInContext(prelude, ctx, { filename: 'morphtrace-determinism.js' });
    new vm.Script(read(file), { filename: path.join(here, file) }).runInContext(ctx, { timeout: 10000 });
  } catch (e) {
    threw = String(e && e.message);
  }
  return { out: out.join('\n'), threw };
}

