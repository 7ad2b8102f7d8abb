// morphtrace's warm V8 coverage runner: one Node process runs many programs. Requests and replies
// are JSON lines on stdin/stdout. Each program runs in a fresh vm context (its own globals) under
// precise block coverage with call counts, taken (and reset) over the in-process inspector after
// every run, so that counts never leak from one program into the next.
'use strict';
const inspector = require('node:inspector');
const vm = require('node:vm');
const util = require('node:util');
const readline = require('node:readline');

const session = new inspector.Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params || {}, (err, res) => (err ? reject(err) : resolve(res))));

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

async function runOne(req) {
  const out = [];
  const write = (...args) => out.push(util.format(...args) + '\n');
  const sandbox = {
    console: { log: write, info: write, debug: write, warn() {}, error() {}, trace() {} },
  };
  if (req.counters !== null && req.counters !== undefined) {
    sandbox[req.countersName] = new Array(req.counters).fill(0);
  }
  const ctx = vm.createContext(sandbox);
  let exit = 0;
  let error = null;
  let timedOut = false;
  try {
    // The determinism prelude, as its own script in the program's context (positions untouched).
    if (req.prelude) vm.runInContext(req.prelude, ctx, { filename: 'morphtrace-determinism.js' });
    const script = new vm.Script(req.source, { filename: req.url });
    script.runInContext(ctx, { timeout: req.timeoutMs });
    // Let promise jobs the program queued run (they count too).
    await new Promise((r) => setImmediate(r));
  } catch (e) {
    exit = 1;
    timedOut = !!(e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT');
    try {
      error = String(e && e.stack ? e.stack.split('\n')[0] : e);
    } catch (_) {
      error = 'uncaught exception';
    }
  }
  const cov = await post('Profiler.takePreciseCoverage');
  // Node reports an absolute vm filename as a file: URL.
  const script = cov.result.find((s) => s.url === req.url || s.url === 'file://' + req.url);
  let counts = null;
  if (req.counters !== null && req.counters !== undefined) {
    const c = sandbox[req.countersName];
    counts = Array.isArray(c) ? c.map((n) => (typeof n === 'number' ? n : -1)) : null;
  }
  return {
    id: req.id,
    stdout: out.join(''),
    exit,
    error,
    timedOut,
    functions: script ? script.functions : [],
    counts,
  };
}

async function main() {
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  reply({ hello: true, node: process.version, v8: process.versions.v8 });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // One request at a time, in order.
  let chain = Promise.resolve();
  rl.on('line', (line) => {
    chain = chain.then(async () => {
      let req;
      try {
        req = JSON.parse(line);
      } catch (e) {
        reply({ id: -1, fatal: 'bad request: ' + e.message });
        return;
      }
      try {
        reply(await runOne(req));
      } catch (e) {
        reply({ id: req.id, fatal: String(e && e.message ? e.message : e) });
      }
    });
  });
  rl.on('close', () => chain.then(() => process.exit(0)));
}

main().catch((e) => {
  reply({ id: -1, fatal: String(e && e.message ? e.message : e) });
  process.exit(2);
});
