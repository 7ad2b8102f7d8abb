#!/usr/bin/env node
// A standalone reproducer written by morphtrace. It debugs two programs on one debugger, as
// `finding.runs` says: the parent (`program.js`, `actions.json`) and the follow-up a
// transformation made of it; and compares the two answers the violated relation compares, the
// follow-up's positions mapped back to the parent's.
// It needs nothing but Node.js 20 or later, speaking each debugger's own protocol:
//   CDP (Chrome DevTools Protocol) over Node's built-in WebSocket, for V8;
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
// The program and actions being run (the parent's, then the follow-up's).
let program, url, actions;
function use(programFile, actionsFile) {
  program = read(programFile);
  url = pathToFileURL(join(here, programFile)).href;
  actions = JSON.parse(read(actionsFile));
}
use('program.js', 'actions.json');
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
    // CDP takes the condition as is, WebKit among its options.
    if (condition !== undefined) Object.assign(extra, this.flavor === 'jsc' ? { options: { condition } } : { condition });
    try {
      const r = await this.call('Debugger.setBreakpointByUrl', { lineNumber: line, url, ...at, ...extra });
      this.ids.push(r.breakpointId);
      const locs = r.locations ?? (r.actualLocation ? [r.actualLocation] : []);
      const placed = locs.filter((l) => l.scriptId === this.scriptId).map(pos);
      return { breakpoint: placed };
    } catch (e) {
      if (!e.protocol) throw e;
      return { error: e.message };
    }
  }
  async control(action) {
    const refused = refusal(this, action);
    if (refused) return refused;
    if (action !== 'Start') await this.step(action);
    else {
      this.started = true;
      // Its reply comes when the program has run to its end.
      this.call('Runtime.runScript', { scriptId: this.scriptId })
        .then(async (r) => {
          this.ran = r.exceptionDetails ? 'exception' : 'ok';
        }, () => (this.ran = 'crashed'));
    }
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

// What the debugger answers to a control action it cannot take (the same in every engine).
function refusal(s, action) {
  if (s.ended) return { error: `the program already ended (${s.ended})` };
  if (action === 'Start' && s.started) return { error: 'the program already started' };
  if (action !== 'Start' && !s.started) return { error: 'the program has not started' };
  return null;
}

const launchers = {
  chromium: launchChromium,
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
      else if (a.SetConditionalBreakpoint) out.push(await session.setBreakpoint(a.SetConditionalBreakpoint.line, a.SetConditionalBreakpoint.column ?? null, a.SetConditionalBreakpoint.condition));
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

// A follow-up position (1-based `line:column`) in the parent's coordinates: lines through the
// transformation's line map, columns through its edits (text replaced inside a line).
function toParent(at, map) {
  const [l, c] = at.split(':').map(Number);
  const line = map.lines[l - 1];
  if (line === null || line === undefined) return `an inserted line (${at})`;
  let column = c - 1;
  for (const e of map.edits.filter((e) => e.line === l - 1)) {
    if (column >= e.column + e.newLen) column = column - e.newLen + e.oldLen;
    else if (column >= e.column) column = e.column;
  }
  return `${line + 1}:${column + 1}`;
}

function mapped(a, map) {
  if (a.paused) return { ...a, paused: { ...a.paused, at: toParent(a.paused.at, map) } };
  if (a.breakpoint) return { ...a, breakpoint: a.breakpoint.map((at) => toParent(at, map)) };
  return a;
}

// The parent and the follow-up on one debugger; exit 1 while the compared answers differ.
async function main() {
  const [parent, follow] = finding.runs;
  const seen = [];
  const versions = [];
  for (const run of finding.runs) {
    use(run.program, run.actions);
    const r = await answers(finding.engines[0]);
    const a = r.out[run.step];
    versions.push(r.version);
    seen.push(a === undefined ? '(no answer)' : aspect(run.map ? mapped(a, run.map) : a));
  }
  console.log(`${finding.title}`);
  console.log(`  parent (${versions[0]}), step ${parent.step + 1}: ${seen[0]}`);
  console.log(`  follow-up (${versions[1]}), step ${follow.step + 1}, in the parent's positions: ${seen[1]}`);
  const shows = seen[0] !== seen[1];
  console.log(shows ? `the finding shows: ${finding.relation} does not hold` : 'the finding does not show: the follow-up answers as the parent did');
  return shows;
}

try {
  process.exit((await main()) ? 1 : 0);
} catch (e) {
  console.error(`reproduce.mjs: ${e.message}`);
  process.exit(2);
}
