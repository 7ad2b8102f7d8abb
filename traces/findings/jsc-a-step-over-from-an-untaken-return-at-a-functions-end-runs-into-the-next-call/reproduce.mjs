#!/usr/bin/env node
// A standalone reproducer written by morphtrace. It replays `actions.json` on `program.js` in
// each debugger named in `finding.json` and compares what they answer at the step where
// morphtrace saw them differ.
// It needs nothing but Node.js 20 or later, speaking each debugger's own protocol:
//   CDP (Chrome DevTools Protocol) over Node's built-in WebSocket, for V8;
//   the WebKit Inspector Protocol over the same WebSocket, for JavaScriptCore in Bun;
//
//   node reproduce.mjs [KIND=PATH | LABEL=PATH]...   (default: the executables recorded)
//
// Exit 1: the finding shows (the answers differ as recorded); 0: they agree; 2: it could not run.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Node 20 has WebSocket behind a flag: run again with it.
if (typeof WebSocket === 'undefined') {
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 2);
}

const here = dirname(fileURLToPath(import.meta.url));
const read = (f) => fs.readFileSync(join(here, f), 'utf8');
const finding = JSON.parse(read('finding.json'));
// morphtrace's determinism prelude (a seeded Math.random, a fixed clock), run first, blackboxed.
const prelude = read('prelude.js');
const [program, url, actions] = [read('program.js'), pathToFileURL(join(here, 'program.js')).href, JSON.parse(read('actions.json'))];
// As long as morphtrace waited for one action's answer.
const ACTION_MS = finding.actionTimeoutMs ?? 5_000;
const overrides = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=')).filter((kv) => kv.length === 2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// 1-based line:column, as morphtrace prints positions.
const pos = (l) => `${l.lineNumber + 1}:${(l.columnNumber ?? 0) + 1}`;

// Resolves on the connection's next message (its `wake`) or after `ms`.
function waitAny(conn, ms) {
  return new Promise((r) => {
    const t = setTimeout(r, ms);
    conn.wake = () => (clearTimeout(t), r());
  });
}

// A CDP connection: replies by id, events kept in order.
class Cdp {
  static async open(wsUrl) {
    const ws = new WebSocket(wsUrl);
    await new Promise((ok, fail) => ((ws.onopen = ok), (ws.onerror = () => fail(new Error(`cannot connect to ${wsUrl}`)))));
    return new Cdp(ws);
  }
  constructor(ws) {
    Object.assign(this, { ws, id: 0, pending: new Map(), events: [], wake: () => {} });
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
}

// One debug session over CDP: Chromium's page, Node's main context (or, extended below, Bun).
class V8Session {
  constructor(cdp, sessionId, flavor) {
    Object.assign(this, { cdp, sessionId, flavor, ids: [], at: [], started: false, ended: null });
  }
  call(method, params) {
    return this.cdp.call(method, params, this.sessionId);
  }
  async load() {
    // Its `targetCrashed` tells a renderer V8 aborted from a program that runs on.
    if (this.flavor === 'chromium') await this.call('Inspector.enable');
    await this.call('Runtime.enable');
    await this.call('Debugger.enable');
    await this.call('Debugger.setBlackboxPatterns', { patterns: ['morphtrace-determinism\\.js$'] });
    await this.call('Runtime.evaluate', { expression: prelude, silent: true });
    const c = await this.call('Runtime.compileScript', { expression: program, sourceURL: url, persistScript: true });
    if (!c.scriptId) throw new Error(`the program does not compile: ${JSON.stringify(c.exceptionDetails)}`);
    this.scriptId = c.scriptId;
  }
  async setBreakpoint(line, column, condition, logged) {
    const at = column === null ? {} : { columnNumber: column };
    // What goes beside the location, not in it.
    const extra = {};
    try {
      const r = await this.call('Debugger.setBreakpointByUrl', { lineNumber: line, url, ...at, ...extra });
      this.ids.push(r.breakpointId);
      const locs = r.locations ?? (r.actualLocation ? [r.actualLocation] : []);
      const placed = locs.filter((l) => l.scriptId === this.scriptId).map(pos);
      this.at[this.ids.length - 1] = placed;
      return { breakpoint: placed };
    } catch (e) {
      if (!e.protocol) throw e;
      return { error: e.message };
    }
  }
  async control(action) {
    const refused = refusal(this, action);
    if (refused) return refused;
    if (action === 'Start') this.started = true;
    const answered = await this.begin(action);
    if (answered) return answered;
    const deadline = Date.now() + ACTION_MS;
    for (;;) {
      const i = this.cdp.events.findIndex((e) => e.method === 'Debugger.paused' && e.sessionId === this.sessionId);
      if (i >= 0) {
        const [e] = this.cdp.events.splice(0, i + 1).slice(-1);
        const answer = await this.pause(e.params, action);
        if (answer) return answer;
        continue;
      }
      if (this.ran) return { finished: (this.ended = this.ran) };
      if (this.cdp.closed) return { finished: (this.ended = 'crashed') };
      // Chromium's renderer died under the program (its browser and connection live on).
      if (this.cdp.events.some((e) => e.method === 'Inspector.targetCrashed' && e.sessionId === this.sessionId)) {
        return { finished: (this.ended = 'crashed') };
      }
      if (Date.now() > deadline) return { finished: (this.ended = 'timeout') };
      await waitAny(this.cdp, deadline - Date.now());
    }
  }
  // Sends the action; an answer when it is known without waiting.
  async begin(action) {
    if (action !== 'Start') return void (await this.step(action));
    // Its reply comes when the program has run to its end.
    this.call('Runtime.runScript', { scriptId: this.scriptId })
      .then((r) => (this.ran = r.exceptionDetails ? 'exception' : 'ok'), () => (this.ran = 'crashed'));
  }
  // Resume, StepInto, …; an engine that dies before it replies answers by its death (below).
  step(action) {
    return this.call(`Debugger.${action[0].toLowerCase()}${action.slice(1)}`).catch((e) => {
      if (!this.cdp.closed) throw e;
    });
  }
  // A pause in the program, or null when the engine stopped outside it (Node's own code, the
  // launcher): then it is left as morphtrace leaves it.
  async pause(params, action) {
    const frames = params.callFrames;
    const mine = (f) => f.location.scriptId === this.scriptId;
    if (!mine(frames[0])) {
      const below = frames.some(mine);
      await this.call(below && action !== 'Resume' ? 'Debugger.stepOut' : 'Debugger.resume');
      return null;
    }
    let stack = frames.filter(mine);
    // JavaScriptCore shows an async function a second time below its body before the first
    // `await`: its wrapper, at the function's closing brace. morphtrace cuts that frame.
    const lines = program.split('\n');
    stack = stack.filter((f, i) => {
      if (i === 0 || f.functionName !== stack[i - 1].functionName || !f.functionName) return true;
      const line = lines[f.location.lineNumber] ?? '';
      const c = f.location.columnNumber ?? 0;
      return !(line.slice(0, c).trimEnd().endsWith('}') && !/^[\w$(]/.test(line.slice(c).trimStart()));
    });
    const name = (f) => (f.functionName === 'global code' ? '' : f.functionName) || '(anonymous)';
    return { paused: { at: pos(stack[0].location), stack: stack.map(name) } };
  }
}

// Browsers run in process groups of their own, killed with their helpers (also when this
// script is interrupted); their profiles go once they are gone.
const browsers = new Set();
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const pid of browsers) try { process.kill(-pid, 'SIGKILL'); } catch {}
    process.exit(2);
  });
}
async function stop(child, dir) {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
    await Promise.race([exited, sleep(5000)]);
  }
  browsers.delete(child?.pid);
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

async function launchChromium(exe, engine) {
  const profile = fs.mkdtempSync(join(tmpdir(), 'reproduce-chromium-'));
  // Chromium's shared memory files (`--disable-dev-shm-usage`), made in TMPDIR and unlinked at
  // once, stay behind when it is killed between the two: those it left go with it.
  const shmem = (f) => f.startsWith('.org.chromium.Chromium.');
  const before = new Set(fs.readdirSync(tmpdir()).filter(shmem));
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-default-browser-check',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions',
    '--disable-dev-shm-usage', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0'];
  // An execution tier's V8 flags (`chromium+jitless`).
  if (engine?.tier?.v8Flags?.length) flags.push(`--js-flags=${engine.tier.v8Flags.join(' ')}`);
  const child = spawn(exe, [...flags, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore', detached: true });
  browsers.add(child.pid);
  // Chromium keeps its singleton socket in a directory of its own under TMPDIR (linked from the
  // profile) and removes it only on a clean exit, which a killed browser never has.
  const cleanup = async () => {
    let socket = '';
    try { socket = dirname(fs.readlinkSync(join(profile, 'SingletonSocket'))); } catch {}
    await stop(child, profile);
    if (basename(socket).startsWith('org.chromium.Chromium.')) fs.rmSync(socket, { recursive: true, force: true });
    for (const f of fs.readdirSync(tmpdir()).filter(shmem)) if (!before.has(f)) fs.rmSync(join(tmpdir(), f), { force: true });
  };
  try {
    const file = join(profile, 'DevToolsActivePort');
    let lines = [];
    for (let i = 0; i < 300 && lines.length < 2; i++) {
      await sleep(50);
      if (fs.existsSync(file)) lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    }
    if (lines.length < 2) throw new Error(`${exe} did not open its debugging port`);
    const cdp = await Cdp.open(`ws://127.0.0.1:${lines[0]}${lines[1]}`);
    const { product } = await cdp.call('Browser.getVersion');
    const { targetId } = await cdp.call('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await cdp.call('Target.attachToTarget', { targetId, flatten: true });
    return { session: new V8Session(cdp, sessionId, 'chromium'), version: product, cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

// A process that prints its inspector's WebSocket URL on stderr: the URL, or null. Should the
// process die of a signal we did not send, what it last printed is shown (a crash report).
function inspectorUrl(child, ms) {
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-8000)));
  child.on('exit', (_, sig) => sig && sig !== 'SIGKILL' && console.error(`the engine died of ${sig}; it printed:\n${err}`));
  return new Promise((ok) => {
    const t = setTimeout(() => ok(null), ms);
    child.stderr.on('data', () => {
      const m = /ws:\/\/\S+/.exec(err);
      if (m) (clearTimeout(t), ok(m[0]));
    });
    child.on('exit', () => ok(null));
  });
}
// Kills the process and waits for its end (so that a crash it had is reported first).
function kill(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => (child.once('exit', ok), child.kill('SIGKILL')));
}

// JavaScriptCore in Bun, as morphtrace drives it: Bun does not transpile what node:vm compiles,
// so the program runs unmodified as a classic script under its URL; JavaScriptCore knows a
// script only once it runs, so the program is run to its first statement (from the launcher's
// `debugger` statement) before breakpoints are set.
const BUN_LAUNCHER = `const vm = require('node:vm');
let script = null;
globalThis.__compile = (text, url) => { script = new vm.Script(text, { filename: url }); };
// Settled from a later timer: the program has ended once the reactions it queued have run.
globalThis.__run = () => new Promise((ok) => setTimeout(() => {
  debugger;
  let ran;
  try { script.runInThisContext(); ran = 'ok'; } catch (e) { ran = 'exception'; }
  setTimeout(() => ok(ran), 0);
}, 0));
setInterval(() => {}, 1 << 30);
`;

class JscSession extends V8Session {
  constructor(cdp) {
    super(cdp, undefined, 'jsc');
  }
  async load() {
    for (const m of ['Inspector.enable', 'Runtime.enable', 'Debugger.enable', 'Inspector.initialized']) await this.call(m);
    await this.call('Debugger.setBreakpointsActive', { active: true });
    await this.call('Debugger.setPauseOnDebuggerStatements', { enabled: true });
    await this.call('Debugger.setShouldBlackboxURL', { url: 'morphtrace-determinism\\.js$', isRegex: true, shouldBlackbox: true });
    await this.call('Runtime.evaluate', { expression: prelude, silent: true });
    await this.call('Runtime.evaluate', { expression: `__compile(${JSON.stringify(program)}, ${JSON.stringify(url)})` });
    const p = await this.call('Runtime.evaluate', { expression: '__run()' });
    this.run = this.call('Runtime.awaitPromise', { promiseObjectId: p.result.objectId, returnByValue: true })
      .then((r) => (this.ran = r.result.value), () => (this.ran = 'crashed'));
    const deadline = Date.now() + 60_000;
    for (let steps = 0; ; ) {
      const parsed = this.cdp.events.find((e) => e.method === 'Debugger.scriptParsed' && e.params.url === url);
      if (parsed) this.scriptId = parsed.params.scriptId;
      const i = this.cdp.events.findIndex((e) => e.method === 'Debugger.paused');
      if (i >= 0) {
        const [e] = this.cdp.events.splice(0, i + 1).slice(-1);
        if (this.scriptId && e.params.callFrames[0].location.scriptId === this.scriptId) return (this.first = e.params);
        await this.call(this.scriptId || steps++ > 8 ? 'Debugger.resume' : 'Debugger.stepInto');
        continue;
      }
      if (this.ran) return;
      if (Date.now() > deadline) throw new Error('the program never reached its first statement');
      await waitAny(this.cdp, deadline - Date.now());
    }
  }
  async begin(action) {
    if (action !== 'Start') return super.begin(action);
    if (!this.first) return { finished: (this.ended = this.ran ?? 'ok') };
    // A breakpoint on the first statement: a resume would pass it; it is hit.
    if (this.at.some((l) => l?.includes(pos(this.first.callFrames[0].location)))) return this.pause(this.first, action);
    await this.call('Debugger.resume');
    return null;
  }
}

async function launchBun(exe, engine) {
  const dir = fs.mkdtempSync(join(tmpdir(), 'reproduce-bun-'));
  fs.writeFileSync(join(dir, 'launcher.js'), BUN_LAUNCHER);
  const token = Math.random().toString(16).slice(2);
  const child = spawn(exe, ['--no-install', `--inspect=127.0.0.1:0/${token}`, join(dir, 'launcher.js')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    // An execution tier's JavaScriptCore options (`bun+nojit`: BUN_JSC_useJIT=0).
    env: { ...process.env, NO_COLOR: '1', ...(engine?.tier?.env ?? {}) },
  });
  const cleanup = () => kill(child).then(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wsUrl = await inspectorUrl(child, 60_000);
  if (!wsUrl) {
    await cleanup();
    throw new Error(`${exe} did not start its inspector`);
  }
  const cdp = await Cdp.open(wsUrl);
  const version = `bun ${spawnSync(exe, ['--version']).stdout.toString().trim()}`;
  return { session: new JscSession(cdp), version, cleanup };
}

// What the debugger answers to a control action it cannot take (the same in every engine).
function refusal(s, action) {
  if (s.ended) return { error: `the program already ended (${s.ended})` };
  if (action === 'Start' && s.started) return { error: 'the program already started' };
  if (action !== 'Start' && !s.started) return { error: 'the program has not started' };
  return null;
}

const launchers = {
  chromium: launchChromium,
  bun: launchBun,
};

// What one engine answers to every action.
async function answers(engine) {
  // By label first: two versions of one engine (node@20.20.2=PATH node@24.19.0=PATH).
  const exe = overrides[engine.label] ?? overrides[engine.kind] ?? engine.executable;
  const launch = launchers[engine.kind];
  if (!launch) throw new Error(`this reproducer does not drive ${engine.kind}`);
  const { session, version, cleanup } = await launch(exe, engine);
  try {
    await session.load();
    const out = [];
    for (const a of actions) {
      if (typeof a === 'string') out.push(await session.control(a));
      else if (a.SetBreakpoint) out.push(await session.setBreakpoint(a.SetBreakpoint.line, a.SetBreakpoint.column));
      else throw new Error(`unknown action ${JSON.stringify(a)}`);
    }
    return { version, out };
  } finally {
    await cleanup();
  }
}

// The aspect of an answer the finding is about, as a string to compare.
function aspect(a) {
  const p = a.paused;
  const line = (at) => (finding.columns ? at : at.split(':')[0]);
  return p ? line(p.at) : JSON.stringify(a);
}

// Every engine's answers; exit 1 while their answers to the finding's step differ.
async function main() {
  const runs = [];
  for (const engine of finding.engines) runs.push(await answers(engine));
  const k = finding.step;
  console.log(`${finding.title}\nstep ${k + 1}: ${JSON.stringify(actions[k])}`);
  const seen = runs.map((r) => (r.out[k] === undefined ? '(no answer)' : aspect(r.out[k])));
  const shown = (got) => got;
  seen.forEach((got, i) => console.log(`  ${finding.engines[i].kind} (${runs[i].version}): ${shown(got)}`));
  const shows = seen.some((s) => s !== seen[0]);
  // Every step's answers compared in the same aspect: whether the finding's step is where they
  // first differ, and where they agree (read by morphtrace's own check of this reproducer).
  const differ = actions.flatMap((_, j) => {
    const at = runs.map((r) => (r.out[j] === undefined ? '(no answer)' : aspect(r.out[j])));
    return at.some((s) => s !== at[0]) ? [j + 1] : [];
  });
  console.log(`steps whose answers differ so: ${differ.join(', ') || 'none'}`);
  console.log(shows ? 'the finding shows: the debuggers differ' : 'the finding does not show: the debuggers agree');
  return shows;
}

try {
  process.exit((await main()) ? 1 : 0);
} catch (e) {
  console.error(`reproduce.mjs: ${e.message}`);
  process.exit(2);
}
