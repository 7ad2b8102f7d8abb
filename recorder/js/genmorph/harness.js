'use strict';
// morphtrace's GenMorph harness: one warm Node process that loads a library function, its
// mutants and StrykerJS's instrumented module, and calls them on inputs sent by the recorder.
// Protocol: one JSON request per line on stdin, one JSON reply per line on stdout, in order.
// Values travel tagged (see schema/src/genmorph/value.rs): ["n", 1.5], ["n", "NaN"], ["s", "x"],
// ["b", true], ["a", [...]], ["u"], ["l"], ["o", "description"].

const Module = require('module');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const inspector = require('inspector');
const readline = require('readline');
const parser = require('@babel/parser');

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
  guarding = true;
  try {
    return loadGuarded(req);
  } finally {
    guarding = false;
  }
}

function loadGuarded(req) {
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

// Loop guards, so that a call that does not end is stopped by a count and not by the clock (a
// count gives the same outcome on a loaded machine). The mutated module's loops call
// __mt_tick() (inserted by the recorder), StrykerJS's instrumented code counts hits itself, and
// every function body and loop body of the library's other modules calls __mt_lib_tick()
// (inserted here, on require; the recorder puts it in the mutated module's function bodies).
// Past a limit a call stops and counts as a timeout. Limits far above what the originals need
// on our inputs, so that only a looping mutant reaches them; they count only during calls (a
// module's own set-up is not a call). StrykerJS counts every mutant switch it passes, not
// iterations. A variant stopped `PATIENCE` times in one request loops on most inputs: the rest
// of the request runs under the quick limits (what a looping call costs is its count times an
// iteration's cost, up to a microsecond in lodash's loops). Counts make that choice the same on
// every run, as they make each stop.
const FULL = { ticks: 10000, lib: 100000, stryker: 100000 };
const QUICK = { ticks: 100, lib: 1000, stryker: 1000 };
const PATIENCE = 5;
let limits = FULL;
let countStops = 0;
let ticks = 0;
let libTicks = 0;
let calling = false;
class HitLimit extends Error {}
globalThis.__mt_tick = function () {
  if (calling && ++ticks > limits.ticks) throw new HitLimit('hit limit');
};
globalThis.__mt_lib_tick = function () {
  if (calling && ++libTicks > limits.lib) throw new HitLimit('hit limit');
};

// Modules required while the library loads or runs get the guard; the harness's own tools
// (Babel's parser, StrykerJS's instrumenter) load outside those times and keep theirs.
let guarding = false;
const guarded = new Map();
const LOOPS = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForInStatement', 'ForOfStatement']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression',
  'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

// `source` with a tick at the top of every loop body and every function body (a deep recursion
// such as mathjs's `product(1, 4e8)`, 8e8 calls and no loop, ends by the count too), or null
// when it does not parse as a script (an ES module, say: those keep Node's own loader).
// Insertions keep every line break, so stack traces keep their line numbers, and go after a
// body's directives, so that "use strict" stays one.
function guardLoops(source) {
  let ast;
  try {
    ast = parser.parse(source, {
      sourceType: 'script', allowReturnOutsideFunction: true, allowHashBang: true,
      errorRecovery: false, tokens: false,
    });
  } catch (e) {
    return null;
  }
  const edits = [];
  const stack = [ast.program];
  while (stack.length) {
    const node = stack.pop();
    if (FUNCTIONS.has(node.type) && node.body && node.body.type === 'BlockStatement') {
      const d = node.body.directives;
      // After a directive without its semicolon, the `;` ends it.
      edits.push(d && d.length ? [d[d.length - 1].end, '; __mt_lib_tick();'] : [node.body.start + 1, ' __mt_lib_tick();']);
    }
    if (LOOPS.has(node.type)) {
      const b = node.body;
      if (b.type === 'BlockStatement') {
        edits.push([b.start + 1, ' __mt_lib_tick();']);
      } else {
        edits.push([b.start, '{ __mt_lib_tick(); ']);
        edits.push([b.end, ' }']);
      }
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
      const v = node[key];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c.type === 'string') stack.push(c);
      } else if (v && typeof v.type === 'string') {
        stack.push(v);
      }
    }
  }
  if (edits.length === 0) return source;
  // From the end, so that earlier offsets stay valid; at one offset, a body's closing brace
  // goes before the next statement's opening one.
  edits.sort((a, b) => b[0] - a[0]);
  let out = source;
  for (const [at, text] of edits) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

const plainJs = Module._extensions['.js'];
Module._extensions['.js'] = function (module, filename) {
  if (!guarding && !calling) return plainJs(module, filename);
  let text = guarded.get(filename);
  if (text === undefined) {
    text = guardLoops(fs.readFileSync(filename, 'utf8'));
    guarded.set(filename, text);
  }
  if (text === null) return plainJs(module, filename);
  module._compile(text, filename);
};

function call(fn, input) {
  const args = input.map(decode);
  ticks = 0;
  libTicks = 0;
  const ns = globalThis.__stryker__;
  if (ns) {
    ns.hitCount = 0;
    ns.hitLimit = limits.stryker;
  }
  calling = true;
  let out;
  try {
    out = { r: encode(fn(...args)) };
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
    if (e instanceof HitLimit || (e && typeof e.message === 'string' &&
        e.message.startsWith('Stryker: Hit count limit reached'))) {
      out = { x: 1 };
    } else {
      const name = e && typeof e.name === 'string' ? e.name : typeof e;
      const message = e && typeof e.message === 'string' ? e.message : String(e);
      out = { t: [name, message] };
    }
  } finally {
    calling = false;
  }
  // The library may have caught the guard's error and gone on: past a limit is a timeout.
  if (ticks > limits.ticks || libTicks > limits.lib) out = { x: 1 };
  if (out.x && ++countStops >= PATIENCE) limits = QUICK;
  return out;
}

// Wall-clock stops since the last reply: outcomes the clock decided, which a loaded machine
// may decide otherwise (the recorder warns about them).
let wallStops = 0;

// One call under a watchdog of `ms`; true when the watchdog stopped it (the call's slot is
// then empty, unless the call ended just before).
function timed(ms) {
  try {
    single.runInThisContext({ timeout: Math.ceil(Math.max(1, ms)) });
    return false;
  } catch (err) {
    calling = false;
    if (!(err && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')) throw err;
    return results[position] === undefined;
  }
}

// Calls `fn` on every input. Loops stop on their counts (above); the clock is the backstop for
// what no count sees (a native call that takes long). The whole batch runs under one watchdog;
// when it fires, the batch goes on one call at a time under a watchdog of `timeout` ms, and a
// call it stops runs once more under `retry` ms before it counts as a timeout, so that a call
// slowed by the machine's load is not recorded as one. After `patience` timeouts in one request
// (a mutant that spins on most inputs), each further call gets `timeout` ms and no retry.
function runAll(fn, inputs, timeout, patience = 5, retry = 1000) {
  limits = FULL;
  countStops = 0;
  results.length = 0;
  current = fn;
  currentInputs = inputs;
  position = 0;
  try {
    batch.runInThisContext({ timeout: Math.ceil(500 + inputs.length / 2) });
  } catch (e) {
    calling = false;
    if (!(e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')) throw e;
    let timeouts = 0;
    while (position < inputs.length) {
      if (results[position] === undefined && timed(timeout) &&
          (timeouts >= patience || timed(Math.max(retry, timeout)))) {
        results[position] = { x: 1 };
        timeouts++;
        wallStops++;
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
      reply = { ok: await handle(JSON.parse(line)), wall: wallStops };
      wallStops = 0;
    } catch (e) {
      reply = { error: (e && e.stack) ? String(e.stack).split('\n').slice(0, 3).join(' | ') : String(e) };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
});
rl.on('close', () => { queue.then(() => process.exit(0)); });
