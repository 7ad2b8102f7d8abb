'use strict';
// morphtrace's GenMorph harness: one warm Node process that loads a library function, its
// mutants and StrykerJS's instrumented module, and calls them on inputs sent by the recorder.
// Protocol: one JSON request per line on stdin, one JSON reply per line on stdout, in order.
// Values travel tagged (see schema/src/genmorph/value.rs): ["n", 1.5], ["n", "NaN"], ["s", "x"],
// ["b", true], ["a", [...]], ["u"], ["l"], ["o", "description"].

const Module = require('module');
const path = require('path');
const vm = require('vm');
const inspector = require('inspector');
const readline = require('readline');

const variants = new Map();
let session = null;

function decode(t) {
  switch (t[0]) {
    case 'u': return undefined;
    case 'l': return null;
    case 'b': return t[1];
    case 's': return t[1];
    case 'a': return t[1].map(decode);
    case 'n':
      if (typeof t[1] === 'number') return t[1];
      return { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 }[t[1]];
    default: throw new Error('cannot decode ' + JSON.stringify(t));
  }
}

function encode(v, depth = 0) {
  if (v === undefined) return ['u'];
  if (v === null) return ['l'];
  if (typeof v === 'boolean') return ['b', v];
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return ['n', 'NaN'];
    if (v === Infinity) return ['n', 'Infinity'];
    if (v === -Infinity) return ['n', '-Infinity'];
    if (Object.is(v, -0)) return ['n', '-0'];
    return ['n', v];
  }
  if (typeof v === 'string') return ['s', v];
  if (Array.isArray(v) && depth < 2) return ['a', Array.from(v, (x) => encode(x, depth + 1))];
  let d;
  try {
    d = Object.prototype.toString.call(v);
  } catch (e) {
    d = typeof v;
  }
  return ['o', d];
}

// The package's root directory (the folder holding package.json) of a module file.
function packageRoot(file) {
  let dir = path.dirname(file);
  while (dir !== path.dirname(dir)) {
    if (path.basename(path.dirname(dir)) === 'node_modules' ||
        path.basename(path.dirname(path.dirname(dir))) === 'node_modules' &&
        path.basename(path.dirname(dir)).startsWith('@')) {
      return dir;
    }
    dir = path.dirname(dir);
  }
  return path.dirname(file);
}

// Loads `source` as the module at `file` (relative requires resolve as for the original), with
// fresh instances of the package's other modules, so that an entry point that requires the
// mutated helper gets the mutant.
function load(req) {
  const file = req.path;
  const root = packageRoot(file);
  for (const k of Object.keys(require.cache)) {
    if (k.startsWith(root + path.sep)) delete require.cache[k];
  }
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(path.dirname(file));
  m._compile(req.source, file);
  m.loaded = true;
  require.cache[file] = m;
  const rel = (name) => require(path.join(root, name));
  const adapter = vm.runInThisContext('(' + req.call + ')');
  const fn = adapter(m.exports, rel);
  if (typeof fn !== 'function') throw new Error('the call adapter did not give a function');
  variants.set(req.id, fn);
  return {};
}

const results = [];
let current = null;
let currentInputs = null;
let position = 0;
const batch = new vm.Script('__mt_harness_batch()');
const single = new vm.Script('__mt_harness_one()');

globalThis.__mt_harness_batch = function () {
  while (position < currentInputs.length) {
    results[position] = call(current, currentInputs[position]);
    position++;
  }
};
globalThis.__mt_harness_one = function () {
  results[position] = call(current, currentInputs[position]);
};

// Loop guards: our training mutants call __mt_tick() in every loop body, StrykerJS's
// instrumented code counts hits itself; past the limit a call stops and counts as a timeout.
// Limits far above what the originals need on our inputs (tens of iterations), so that only a
// looping mutant reaches them. StrykerJS counts every mutant switch it passes, not iterations.
const TICK_LIMIT = 10000;
const STRYKER_HIT_LIMIT = 100000;
let ticks = 0;
class HitLimit extends Error {}
globalThis.__mt_tick = function () {
  if (++ticks > TICK_LIMIT) throw new HitLimit('hit limit');
};

function call(fn, input) {
  const args = input.map(decode);
  ticks = 0;
  const ns = globalThis.__stryker__;
  if (ns) {
    ns.hitCount = 0;
    ns.hitLimit = STRYKER_HIT_LIMIT;
  }
  try {
    return { r: encode(fn(...args)) };
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
    if (e instanceof HitLimit || (e && typeof e.message === 'string' &&
        e.message.startsWith('Stryker: Hit count limit reached'))) {
      return { x: 1 };
    }
    const name = e && typeof e.name === 'string' ? e.name : typeof e;
    const message = e && typeof e.message === 'string' ? e.message : String(e);
    return { t: [name, message] };
  }
}

// Calls `fn` on every input. The whole batch runs under one watchdog; when it fires, the
// batch goes on one call at a time, each under its own watchdog of `timeout` ms, so that one
// looping input costs one timeout and not the rest of the batch. After `patience` timeouts in
// one request (a mutant that loops on most inputs), each further call gets `quick` ms.
function runAll(fn, inputs, timeout, patience = 5, quick = 1) {
  results.length = 0;
  current = fn;
  currentInputs = inputs;
  position = 0;
  try {
    batch.runInThisContext({ timeout: Math.ceil(500 + inputs.length / 2) });
  } catch (e) {
    if (!(e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')) throw e;
    let timeouts = 0;
    while (position < inputs.length) {
      try {
        single.runInThisContext({ timeout: Math.ceil(Math.max(1, timeouts >= patience ? quick : timeout)) });
      } catch (err) {
        if (!(err && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')) throw err;
        results[position] = { x: 1 };
        timeouts++;
      }
      position++;
    }
  }
  // A watchdog may fire between storing a result and moving on: the stored result stays.
  return results.slice(0, inputs.length);
}

function variant(id) {
  const fn = variants.get(id);
  if (!fn) throw new Error('no variant ' + id);
  return fn;
}

function setActive(active) {
  const ns = globalThis.__stryker__ || (globalThis.__stryker__ = {});
  ns.activeMutant = active === undefined || active === null ? undefined : String(active);
}

function run(req) {
  setActive(req.active);
  try {
    return { outcomes: runAll(variant(req.variant), req.inputs, req.timeout_ms) };
  } finally {
    setActive(undefined);
  }
}

function post(method, params) {
  let out;
  let error;
  // The in-process session answers synchronously.
  session.post(method, params || {}, (err, res) => {
    error = err;
    out = res;
  });
  if (error) throw error;
  return out;
}

// Block coverage (binary) of each call, restricted to ranges inside [lo, hi) of scripts whose
// URL ends with the module's path: [[start, end, count], ...] per input.
function coverage(req) {
  if (!session) {
    session = new inspector.Session();
    session.connect();
    post('Profiler.enable');
    post('Profiler.startPreciseCoverage', { callCount: false, detailed: true });
  }
  const fn = variant(req.variant);
  const [lo, hi] = req.span;
  const out = [];
  const outcomes = [];
  post('Profiler.takePreciseCoverage');
  for (const input of req.inputs) {
    outcomes.push(runAll(fn, [input], req.timeout_ms)[0]);
    const cov = post('Profiler.takePreciseCoverage');
    const ranges = [];
    for (const script of cov.result) {
      if (!(script.url === req.path || script.url.endsWith(req.path))) continue;
      // Only copies of the original text: the function spans exactly [lo, hi) there (mutants
      // and StrykerJS's instrumented copy at the same path have other offsets).
      if (!script.functions.some((f) => f.ranges[0].startOffset === lo && f.ranges[0].endOffset === hi)) continue;
      for (const f of script.functions) {
        for (const r of f.ranges) {
          if (r.startOffset >= lo && r.endOffset <= hi) {
            ranges.push([r.startOffset, r.endOffset, r.count]);
          }
        }
      }
    }
    out.push(ranges);
  }
  return { coverage: out, outcomes };
}

let stryker = null;
const quiet = {};
for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
  quiet[level] = () => {};
  quiet['is' + level[0].toUpperCase() + level.slice(1) + 'Enabled'] = () => false;
}

async function instrument(req) {
  if (!stryker) {
    stryker = await import('@stryker-mutator/instrumenter');
  }
  const result = await new stryker.Instrumenter(quiet).instrument(
    [{ name: req.path, content: req.source, mutate: true }],
    { plugins: null, excludedMutations: [], ignorers: [] });
  return {
    source: result.files[0].content,
    mutants: result.mutants.map((m) => ({
      id: String(m.id),
      mutator: m.mutatorName,
      replacement: m.replacement === undefined ? '' : String(m.replacement),
      start: [m.location.start.line, m.location.start.column],
      end: [m.location.end.line, m.location.end.column],
    })),
  };
}

// Relations under a falsification search: compiled once, called on many pairs.
let mt = null;
const relations = new Map();

function relation(req) {
  if (!mt) throw new Error('no prelude loaded');
  const key = req.names.join(',') + '|' + req.relation;
  if (!relations.has(key)) {
    relations.set(key, new Function('__mt', ...req.names, 'return (' + req.relation + ');'));
  }
  return relations.get(key);
}

// Runs the variant on each (source, follow-up) pair and judges the output relation where both
// calls returned: {holds} per pair, or {skipped} with why.
function check(req) {
  const fn = variant(req.variant);
  const rel = relation(req);
  const sources = runAll(fn, req.pairs.map((p) => p[0]), req.timeout_ms);
  const follows = runAll(fn, req.pairs.map((p) => p[1]), req.timeout_ms);
  return {
    verdicts: req.pairs.map((p, i) => {
      const [os, of] = [sources[i], follows[i]];
      if (!os.r || !of.r) return { skipped: 'no output' };
      const args = [];
      for (let k = 0; k < p[0].length; k++) args.push(decode(p[0][k]), decode(p[1][k]));
      args.push(decode(os.r), decode(of.r));
      try {
        return { holds: rel(mt, ...args) === true, out_s: os.r, out_f: of.r };
      } catch (e) {
        return { skipped: 'relation threw ' + String(e) };
      }
    }),
  };
}

async function handle(req) {
  switch (req.op) {
    case 'hello': return { node: process.version };
    case 'load': return load(req);
    case 'run': return run(req);
    case 'coverage': return coverage(req);
    case 'instrument': return instrument(req);
    case 'forget': variants.delete(req.id); return {};
    case 'prelude': mt = vm.runInThisContext('(function () {\n' + req.source + '\nreturn __mt;\n})()'); return {};
    case 'check': return check(req);
    default: throw new Error('unknown request ' + req.op);
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
let queue = Promise.resolve();
rl.on('line', (line) => {
  queue = queue.then(async () => {
    let reply;
    try {
      reply = { ok: await handle(JSON.parse(line)) };
    } catch (e) {
      reply = { error: (e && e.stack) ? String(e.stack).split('\n').slice(0, 3).join(' | ') : String(e) };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
});
rl.on('close', () => { queue.then(() => process.exit(0)); });
