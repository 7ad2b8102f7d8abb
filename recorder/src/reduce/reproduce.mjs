#!/usr/bin/env node
// A standalone reproducer written by morphtrace. It replays `actions.json` on `program.js` in
// each debugger named in `finding.json`, speaking the debugger's own protocol with nothing but
// Node.js (CDP over Node's built-in WebSocket, for Chromium and Node), and compares what the
// debuggers answer at the step where morphtrace saw them differ.
//
//   node reproduce.mjs [chromium=PATH] [node=PATH]     (default: the executables recorded)
//
// Exit 1: the finding shows (the answers differ as recorded); 0: they agree; 2: it could not run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Node 20 has WebSocket behind a flag: run again with it.
if (typeof WebSocket === 'undefined') {
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 2);
}

const here = dirname(fileURLToPath(import.meta.url));
const read = (f) => readFileSync(join(here, f), 'utf8');
const finding = JSON.parse(read('finding.json'));
const actions = JSON.parse(read('actions.json'));
const program = read('program.js');
const prelude = finding.prelude ? read('prelude.js') : null;
const url = pathToFileURL(join(here, 'program.js')).href;
const ACTION_MS = 10_000;
const overrides = Object.fromEntries(
  process.argv.slice(2).map((a) => a.split('=')).filter((kv) => kv.length === 2),
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Cdp {
  static async open(wsUrl) {
    const ws = new WebSocket(wsUrl);
    await new Promise((ok, fail) => {
      ws.onopen = ok;
      ws.onerror = () => fail(new Error(`cannot connect to ${wsUrl}`));
    });
    return new Cdp(ws);
  }
  constructor(ws) {
    this.ws = ws;
    this.id = 0;
    this.pending = new Map();
    this.events = [];
    this.wake = () => {};
    ws.onmessage = (m) => {
      const j = JSON.parse(m.data);
      const p = j.id !== undefined && this.pending.get(j.id);
      if (p) {
        this.pending.delete(j.id);
        if (j.error) p.fail(Object.assign(new Error(j.error.message), { protocol: true }));
        else p.ok(j.result);
      } else if (j.method) this.events.push(j);
      this.wake();
    };
    ws.onclose = () => {
      this.closed = true;
      for (const p of this.pending.values()) p.fail(new Error('the debugger closed the connection'));
      this.wake();
    };
  }
  call(method, params = {}, sessionId) {
    const id = ++this.id;
    this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((ok, fail) => this.pending.set(id, { ok, fail }));
  }
  // Resolves on the next message or after `ms`.
  waitAny(ms) {
    return new Promise((r) => {
      const t = setTimeout(r, ms);
      this.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }
}

// Renders a value in the page, the same way on every V8: own data properties, Map and Set
// entries, three levels deep, 5000 entries each.
const SHOW = `function () {
  const seen = new Set();
  const r = (v, d) => {
    if (v === null) return 'null';
    const t = typeof v;
    if (t === 'string') return JSON.stringify(v);
    if (t === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (t === 'bigint') return v + 'n';
    if (t === 'symbol') return v.toString();
    if (t !== 'object' && t !== 'function') return String(v);
    if (t === 'function') return 'function ' + v.name;
    if (seen.has(v)) return '<cycle>';
    if (d > 3) return '{…}';
    seen.add(v);
    const list = (xs) => xs.slice(0, 5000).join(', ') + (xs.length > 5000 ? ', …' : '');
    let out;
    if (Array.isArray(v)) out = '[' + list(Array.from(v, (x) => r(x, d + 1))) + ']';
    else if (v instanceof Map) out = 'Map {' + list([...v].map(([k, x]) => r(k, d + 1) + ' => ' + r(x, d + 1))) + '}';
    else if (v instanceof Set) out = 'Set {' + list([...v].map((x) => r(x, d + 1))) + '}';
    else if (v instanceof Date) out = 'Date ' + (isNaN(v) ? 'Invalid' : v.toISOString());
    else if (v instanceof Error) out = v.name + ': ' + v.message;
    else {
      const own = Object.getOwnPropertyNames(v).filter((k) => 'value' in Object.getOwnPropertyDescriptor(v, k));
      const name = v.constructor && v.constructor.name !== 'Object' ? v.constructor.name + ' ' : '';
      out = name + '{' + list(own.map((k) => k + ': ' + r(v[k], d + 1))) + '}';
    }
    seen.delete(v);
    return out;
  };
  return r(this, 0);
}`;

// One debug session on a V8 engine (Chromium's page or Node's main context).
class V8Session {
  constructor(cdp, sessionId, flavor) {
    Object.assign(this, { cdp, sessionId, flavor, ids: [], started: false, ended: null });
  }
  call(method, params) {
    return this.cdp.call(method, params, this.sessionId);
  }
  async load() {
    await this.call('Runtime.enable');
    await this.call('Debugger.enable');
    if (prelude !== null) {
      // morphtrace's determinism prelude (seeded Math.random, a fixed clock), blackboxed.
      await this.call('Debugger.setBlackboxPatterns', { patterns: ['morphtrace-determinism\\.js$'] });
      await this.call('Runtime.evaluate', { expression: prelude, silent: true });
    }
    const c = await this.call('Runtime.compileScript', {
      expression: program,
      sourceURL: url,
      persistScript: true,
    });
    if (!c.scriptId) throw new Error(`the program does not compile: ${JSON.stringify(c.exceptionDetails)}`);
    this.scriptId = c.scriptId;
  }
  async setBreakpoint(line, column) {
    const at = column === null ? {} : { columnNumber: column };
    try {
      const r =
        this.flavor === 'chromium'
          ? await this.call('Debugger.setBreakpointByUrl', { lineNumber: line, url, ...at })
          : await this.call('Debugger.setBreakpoint', {
              location: { scriptId: this.scriptId, lineNumber: line, ...at },
            });
      this.ids.push(r.breakpointId);
      const locs = r.locations ?? (r.actualLocation ? [r.actualLocation] : []);
      return { breakpoint: locs.filter((l) => l.scriptId === this.scriptId).map(pos) };
    } catch (e) {
      if (!e.protocol) throw e;
      return { error: e.message };
    }
  }
  async removeBreakpoint(id) {
    const engineId = this.ids[id];
    if (engineId === undefined) return { removed: false };
    try {
      await this.call('Debugger.removeBreakpoint', { breakpointId: engineId });
      this.ids[id] = undefined;
      return { removed: true };
    } catch (e) {
      if (!e.protocol) throw e;
      return { removed: false };
    }
  }
  async control(action) {
    if (this.ended) return { error: `the program already ended (${this.ended})` };
    if (action === 'Start' && this.started) return { error: 'the program already started' };
    if (action !== 'Start' && !this.started) return { error: 'the program has not started' };
    if (action === 'Start') {
      this.started = true;
      // Its reply comes when the program has run to its end.
      this.run = this.call('Runtime.runScript', { scriptId: this.scriptId }).then(
        (r) => (this.ran = r.exceptionDetails ? 'exception' : 'ok'),
        () => (this.ran = 'crashed'),
      );
    } else {
      await this.call(`Debugger.${action[0].toLowerCase()}${action.slice(1)}`);
    }
    const deadline = Date.now() + ACTION_MS;
    for (;;) {
      const i = this.cdp.events.findIndex(
        (e) => e.method === 'Debugger.paused' && e.sessionId === this.sessionId,
      );
      if (i >= 0) {
        const [e] = this.cdp.events.splice(0, i + 1).slice(-1);
        const answer = await this.pause(e.params, action);
        if (answer) return answer;
        continue;
      }
      if (this.ran) return { finished: (this.ended = this.ran) };
      if (this.cdp.closed) return { finished: (this.ended = 'crashed') };
      if (Date.now() > deadline) return { finished: (this.ended = 'timeout') };
      await this.cdp.waitAny(deadline - Date.now());
    }
  }
  // A pause in the program, or null when the engine stopped outside it (Node's own code): then
  // it is left as morphtrace leaves it.
  async pause(params, action) {
    const frames = params.callFrames;
    const mine = (f) => f.location.scriptId === this.scriptId;
    if (!mine(frames[0])) {
      const below = frames.some(mine);
      await this.call(below && action !== 'Resume' ? 'Debugger.stepOut' : 'Debugger.resume');
      return null;
    }
    const stack = frames.filter(mine);
    const variables = {};
    for (const scope of stack[0].scopeChain) {
      if (scope.type === 'global') continue;
      const props = await this.call('Runtime.getProperties', {
        objectId: scope.object.objectId,
        ownProperties: true,
      });
      for (const p of props.result) {
        if (!(p.name in variables)) variables[p.name] = await this.show(p.value);
      }
    }
    return {
      paused: {
        at: pos(stack[0].location),
        stack: stack.map((f) => f.functionName || '(anonymous)'),
        variables,
      },
    };
  }
  async show(v) {
    if (v === undefined) return '<uninitialized>';
    if (v.objectId && (v.type === 'object' || v.type === 'function')) {
      const r = await this.call('Runtime.callFunctionOn', {
        objectId: v.objectId,
        functionDeclaration: SHOW,
        returnByValue: true,
      });
      return r.result.value;
    }
    if (v.subtype === 'null') return 'null';
    if (v.unserializableValue) return v.unserializableValue;
    if (v.type === 'string') return JSON.stringify(v.value);
    if (v.type === 'symbol') return v.description;
    return v.type === 'undefined' ? 'undefined' : String(v.value);
  }
}

// 1-based line:column, as morphtrace prints positions.
const pos = (l) => `${l.lineNumber + 1}:${(l.columnNumber ?? 0) + 1}`;

async function launchChromium(exe) {
  const profile = mkdtempSync(join(tmpdir(), 'reproduce-chromium-'));
  const child = spawn(
    exe,
    [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-extensions', '--disable-dev-shm-usage', '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const cleanup = () => {
    child.kill('SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const file = join(profile, 'DevToolsActivePort');
    let lines = [];
    for (let i = 0; i < 300 && lines.length < 2; i++) {
      await sleep(50);
      if (existsSync(file)) lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    }
    if (lines.length < 2) throw new Error(`${exe} did not open its debugging port`);
    const cdp = await Cdp.open(`ws://127.0.0.1:${lines[0]}${lines[1]}`);
    const { product } = await cdp.call('Browser.getVersion');
    const { targetId } = await cdp.call('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await cdp.call('Target.attachToTarget', { targetId, flatten: true });
    return { session: new V8Session(cdp, sessionId, 'chromium'), version: product, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

async function launchNode(exe) {
  const major = Number(/v(\d+)/.exec(spawnSync(exe, ['--version']).stdout)?.[1] ?? 0);
  // The permission model where the inspector works under it (Node 22 and later).
  const tries = major >= 22 ? [['--permission', '--allow-inspector'], ['--permission'], []] : [[]];
  for (const flags of tries) {
    const child = spawn(exe, [...flags, '--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1 << 30)'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const wsUrl = await new Promise((ok) => {
      let err = '';
      const t = setTimeout(() => ok(null), 10_000);
      child.stderr.on('data', (d) => {
        err += d;
        const m = /ws:\/\/\S+/.exec(err);
        if (m) {
          clearTimeout(t);
          ok(m[0]);
        }
      });
      child.on('exit', () => ok(null));
    });
    if (!wsUrl) {
      child.kill('SIGKILL');
      continue;
    }
    child.stderr.resume();
    const cdp = await Cdp.open(wsUrl);
    return {
      session: new V8Session(cdp, undefined, 'node'),
      version: `node ${spawnSync(exe, ['--version']).stdout.toString().trim()}`,
      cleanup: () => child.kill('SIGKILL'),
    };
  }
  throw new Error(`${exe} did not start its inspector`);
}

const launchers = { chromium: launchChromium, node: launchNode };

// What one engine answers to every action.
async function answers(engine) {
  const launch = launchers[engine.kind];
  if (!launch) throw new Error(`this reproducer does not drive ${engine.kind}`);
  const exe = overrides[engine.kind] ?? engine.executable;
  const { session, version, cleanup } = await launch(exe);
  try {
    await session.load();
    const out = [];
    for (const a of actions) {
      if (typeof a === 'string') out.push(await session.control(a));
      else if (a.SetBreakpoint) out.push(await session.setBreakpoint(a.SetBreakpoint.line, a.SetBreakpoint.column));
      else if (a.RemoveBreakpoint) out.push(await session.removeBreakpoint(a.RemoveBreakpoint.id));
      else throw new Error(`unknown action ${JSON.stringify(a)}`);
    }
    return { version, out };
  } finally {
    cleanup();
  }
}

const line = (at) => (finding.columns ? at : at.split(':')[0]);
// The aspect of the answers the finding is about, as a string to compare.
function aspect(a) {
  const p = a.paused;
  switch (finding.kind) {
    case 'breakpoint-location':
      return a.breakpoint ? a.breakpoint.map(line).join(',') : `refused (${a.error})`;
    case 'breakpoint-removal':
      return String(a.removed);
    case 'termination':
      return a.finished ? `ended (${a.finished})` : p ? 'paused' : JSON.stringify(a);
    case 'pause-location':
      return p ? line(p.at) : JSON.stringify(a);
    case 'call-stack':
      return p ? p.stack.join(' < ') : JSON.stringify(a);
    case 'variables':
      if (!p) return JSON.stringify(a);
      return finding.variables
        .map((n) => `${n} = ${n in p.variables ? p.variables[n] : '(absent)'}`)
        .join('; ');
    default:
      return JSON.stringify(a);
  }
}

try {
  const runs = [];
  for (const engine of finding.engines) runs.push(await answers(engine));
  const k = finding.step;
  console.log(`${finding.title}\nstep ${k + 1}: ${JSON.stringify(actions[k])}`);
  const seen = runs.map((r) => (r.out[k] === undefined ? '(no answer)' : aspect(r.out[k])));
  // Long answers are shown around their first difference.
  let from = 0;
  while (seen.every((s) => s[from] === seen[0][from]) && from < seen[0].length) from++;
  seen.forEach((got, i) => {
    const shown = got.length <= 300 ? got : `…${got.slice(Math.max(0, from - 100), from + 100)}… (character ${from})`;
    console.log(`  ${finding.engines[i].kind} (${runs[i].version}): ${shown}`);
  });
  const shows = seen.some((s) => s !== seen[0]);
  console.log(shows ? 'the finding shows: the debuggers differ' : 'the finding does not show: the debuggers agree');
  process.exit(shows ? 1 : 0);
} catch (e) {
  console.error(`reproduce.mjs: ${e.message}`);
  process.exit(2);
}
