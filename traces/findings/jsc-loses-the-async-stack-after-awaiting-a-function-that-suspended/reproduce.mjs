#!/usr/bin/env node
// A standalone reproducer written by morphtrace. It replays `actions.json` on `program.js` in
// each debugger named in `finding.json` and compares what they answer at the step where
// morphtrace saw them differ.
// It needs nothing but Node.js 20 or later, speaking each debugger's own protocol:
//   CDP (Chrome DevTools Protocol) over Node's built-in WebSocket, for V8;
//   the WebKit Inspector Protocol over the same WebSocket, for JavaScriptCore in Bun;
//   Firefox's Remote Debugging Protocol over a TCP socket, for SpiderMonkey.
//
//   node reproduce.mjs [KIND=PATH | LABEL=PATH]...   (default: the executables recorded)
//
// Exit 1: the finding shows (the answers differ as recorded); 0: they agree; 2: it could not run.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { connect, createServer } from 'node:net';
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
    await this.call('Debugger.setAsyncCallStackDepth', { maxDepth: 16 });
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
    // The async stack: who awaited or scheduled the paused code, segment by segment.
    const segments = [];
    for (let t = params.asyncStackTrace; t; t = t.parent ?? t.parentStackTrace) {
      const own = t.callFrames.filter((f) => f.scriptId === this.scriptId);
      if (own.length) segments.push(own.map(name));
    }
    return { paused: { at: pos(stack[0].location), stack: stack.map(name), async: segments } };
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
    await this.call('Debugger.setAsyncStackTraceDepth', { depth: 16 });
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

// Firefox's Remote Debugging Protocol: `<byte length>:<JSON>` packets over TCP; a reply is the
// next packet from the actor asked that is not an event (replies carry no id).
const RDP_EVENTS = new Set([
  'paused', 'resumed', 'newSource', 'target-available-form', 'target-destroyed-form',
  'resources-available-array', 'resources-updated-array', 'resources-destroyed-array',
  'evaluationResult', 'frameUpdate', 'tabListChanged', 'descriptor-destroyed', 'tabNavigated',
  'workerListChanged', 'forwardingCancelled',
]);

class Rdp {
  static open(port) {
    return new Promise((ok, fail) => {
      const sock = connect({ host: '127.0.0.1', port }, () => {
        sock.setNoDelay(true);
        // The server greets first.
        new Rdp(sock).greeted = ok;
      });
      sock.once('error', fail);
    });
  }
  constructor(sock) {
    Object.assign(this, { sock, buf: Buffer.alloc(0), pending: new Map(), events: [], wake: () => {} });
    sock.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      for (;;) {
        const colon = this.buf.indexOf(0x3a);
        if (colon < 0) break;
        const len = Number(this.buf.subarray(0, colon).toString());
        if (this.buf.length < colon + 1 + len) break;
        const packet = JSON.parse(this.buf.subarray(colon + 1, colon + 1 + len).toString('utf8'));
        this.buf = this.buf.subarray(colon + 1 + len);
        this.route(packet);
      }
      this.wake();
    });
    sock.on('close', () => {
      this.closed = true;
      for (const q of this.pending.values()) for (const p of q) p.fail(new Error('Firefox closed the connection'));
      this.wake();
    });
    sock.on('error', () => {});
  }
  route(p) {
    if (this.greeted) {
      const g = this.greeted;
      this.greeted = null;
      return g(this);
    }
    const q = !RDP_EVENTS.has(p.type) && this.pending.get(p.from);
    if (q && q.length) {
      const { ok, fail } = q.shift();
      if (p.error) fail(Object.assign(new Error(`${p.error}: ${p.message ?? ''}`), { protocol: true }));
      else ok(p);
    } else this.events.push(p);
  }
  request(to, type, fields = {}) {
    const body = Buffer.from(JSON.stringify({ to, type, ...fields }), 'utf8');
    this.sock.write(`${body.length}:`);
    this.sock.write(body);
    return new Promise((ok, fail) => {
      if (!this.pending.has(to)) this.pending.set(to, []);
      this.pending.get(to).push({ ok, fail });
    });
  }
  // The next event, or null at the deadline.
  async next(deadline) {
    while (!this.events.length) {
      if (this.closed) throw new Error('Firefox closed the connection');
      if (Date.now() > deadline) return null;
      await waitAny(this, deadline - Date.now());
    }
    return this.events.shift();
  }
  close() {
    this.sock.destroy();
  }
}

// The `[type, resource]` pairs of a resources event.
const resourcesOf = (ev) => (ev.array ?? []).flatMap(([ty, list]) => (list ?? []).map((r) => [ty, r]));
const MARKER = '__REPRODUCE_END__';

// One debug session in Firefox: the program is a classic script of a generated page, stopped at
// its first statement before anything runs (the `script.source.firstStatement` event breakpoint).
class FirefoxSession {
  constructor(rdp, dir, policy) {
    Object.assign(this, { rdp, dir, policy, at: new Map(), bps: [], conds: [], logs: new Map(), started: false, ended: null });
  }
  async load() {
    const rdp = this.rdp;
    const deadline = Date.now() + 30_000;
    // getTab fails until the first tab is ready.
    for (;;) {
      try {
        this.tab = (await rdp.request('root', 'getTab')).tab.actor;
        break;
      } catch (e) {
        if (!e.protocol || Date.now() > deadline) throw e;
        await sleep(100);
      }
    }
    const watcher = (await rdp.request(this.tab, 'getWatcher', { isServerTargetSwitchingEnabled: true, isPopupDebuggingEnabled: false })).actor;
    await rdp.request(watcher, 'watchTargets', { targetType: 'frame' });
    this.list = (await rdp.request(watcher, 'getBreakpointListActor')).breakpointList.actor;
    this.config = (await rdp.request(watcher, 'getThreadConfigurationActor')).configuration.actor;
    const configuration = { shouldIncludeSavedFrames: true, shouldIncludeAsyncLiveFrames: true };
    await rdp.request(this.config, 'updateConfiguration', { configuration });
    await rdp.request(watcher, 'watchResources', { resourceTypes: ['console-message', 'error-message'] });
    // The prelude names itself (`//# sourceURL=`), as in V8.
    const preludeUrl = pathToFileURL(join(this.dir, 'morphtrace-determinism.js')).href;
    const bb = (await rdp.request(watcher, 'getBlackboxingActor')).blackboxing.actor;
    await rdp.request(bb, 'blackbox', { url: preludeUrl, range: [] });
    await rdp.request(this.list, 'setActiveEventBreakpoints', { ids: ['script.source.firstStatement'] });
    rdp.events.length = 0; // replayed resources of about:blank
    const page = pathToFileURL(join(this.dir, 'page.html')).href;
    // Its reply may come only once the page is idle: not waited for.
    rdp.request(this.tab, 'navigateTo', { url: page, waitForLoad: false }).catch(() => {});
    this.url = pathToFileURL(join(this.dir, 'program.js')).href;
    for (;;) {
      const ev = await this.event(deadline);
      if (!ev) throw new Error('the page did not load in Firefox');
      if (ev.type !== 'paused') continue;
      this.thread = ev.from;
      const source = ev.frame.where.actor;
      let url;
      for (let i = 0; i < 40 && url === undefined; i++) {
        const { sources } = await rdp.request(this.thread, 'sources');
        url = sources.find((s) => s.actor === source)?.url;
        if (url === undefined) await sleep(25);
      }
      if (url === preludeUrl) {
        await rdp.request(this.thread, 'resume');
        continue;
      }
      if (url !== this.url) throw new Error('the program does not compile in Firefox');
      this.source = source;
      this.first = ev.frame.where;
      break;
    }
    await rdp.request(this.list, 'setActiveEventBreakpoints', { ids: [] });
    const { positions } = await rdp.request(this.source, 'getBreakpointPositionsCompressed');
    // 0-based lines, sorted; columns sorted.
    this.positions = new Map(
      Object.entries(positions)
        .map(([l, cols]) => [Number(l) - 1, [...cols].sort((a, b) => a - b)])
        .sort((a, b) => a[0] - b[0]),
    );
  }
  // The next event, noting the console actor of the newest target and the page's end.
  async event(deadline) {
    const ev = await this.rdp.next(deadline);
    if (ev?.type === 'target-available-form') this.console = ev.target.consoleActor;
    if (ev?.type === 'resources-available-array') {
      for (const [ty, r] of resourcesOf(ev)) {
        if (ty === 'console-message' && r.arguments?.[0] === MARKER) this.marker = true;
        const e = r.pageError;
        if (ty === 'error-message' && e && !e.warning && e.category === 'content javascript') this.error = true;
      }
    }
    return ev;
  }
  // Firefox arms only exact positions: where the breakpoint goes is the client's choice, made
  // as morphtrace made it (its recorded policy).
  place(line, column) {
    const onLine = (l, min) => this.positions.get(l)?.find((c) => c >= min);
    const c = onLine(line, column ?? 0);
    if (c !== undefined) return { line, column: c };
    if (this.policy === 'same-line') return null;
    for (const [l] of this.positions) if (l > line && onLine(l, 0) !== undefined) return { line: l, column: onLine(l, 0) };
    return null;
  }
  wire(loc) {
    return { sourceUrl: this.url, line: loc.line + 1, column: loc.column };
  }
  async setBreakpoint(line, column, condition, logged) {
    const loc = this.place(line, column);
    const key = loc && `${loc.line}:${loc.column}`;
    this.bps.push(loc);
    if (!loc) return { breakpoint: [] };
    const here = this.at.get(key) ?? [];
    const before = this.options(here, key);
    here.push(condition ?? null);
    this.at.set(key, here);
    if (here.length === 1 || JSON.stringify(before) !== JSON.stringify(this.options(here, key))) {
      try {
        await this.rdp.request(this.list, 'setBreakpoint', { location: this.wire(loc), options: this.options(here, key) });
      } catch (e) {
        if (!e.protocol) throw e;
        here.pop();
        return { error: e.message };
      }
    }
    return { breakpoint: [`${loc.line + 1}:${loc.column + 1}`] };
  }
  // Firefox keeps one breakpoint per place: it pauses where any of ours there would, as
  // morphtrace sets it (no condition if one has none, else the disjunction of theirs).
  options(conditions, key) {
    return conditions.length && conditions.every((c) => c !== null) ? { condition: conditions.map((c) => `(${c})`).join(' || ') } : {};
  }
  async control(action) {
    const refused = refusal(this, action);
    if (refused) return refused;
    const limits = { StepInto: { type: 'step' }, StepOver: { type: 'next' }, StepOut: { type: 'finish' } };
    if (action === 'Start') {
      this.started = true;
      const f = this.first;
      // A breakpoint on the first statement: the pause we are in is its hit (resuming would
      // not hit it again); V8 stops there too.
      if (this.at.get(`${f.line - 1}:${f.column}`)?.length) {
        const p = await this.pause(action);
        if (p) return p;
      }
      await this.rdp.request(this.thread, 'resume', { resumeLimit: null });
    } else {
      await this.rdp.request(this.thread, 'resume', { resumeLimit: limits[action] ?? null });
    }
    const deadline = Date.now() + ACTION_MS;
    for (;;) {
      if (this.marker) return { finished: (this.ended = this.error ? 'exception' : 'ok') };
      const ev = await this.event(deadline).catch(() => 'closed');
      if (ev === 'closed') return { finished: (this.ended = 'crashed') };
      if (!ev) return { finished: (this.ended = 'timeout') };
      if (ev.type !== 'paused') continue;
      this.thread = ev.from;
      const p = await this.pause(action, ev.why);
      if (p) return p;
    }
  }
  // A pause in the program, or null when Firefox stopped elsewhere (then it is left as
  // morphtrace leaves it).
  async pause(action, why) {
    // Live frames first; below them the async stack's saved frames, a segment at each cause.
    const all = (await this.rdp.request(this.thread, 'frames', { start: 0, count: 1000 })).frames;
    const live = all.findIndex((f) => f.state !== 'on-stack');
    const frames = live < 0 ? all : all.slice(0, live);
    const segments = [];
    for (const f of live < 0 ? [] : all.slice(live)) {
      if (f.asyncCause || !segments.length) segments.push([]);
      if (f.where?.actor === this.source) segments.at(-1).push(f.displayName && f.displayName !== '(global)' ? f.displayName : '(anonymous)');
    }
    const mine = (f) => f.where?.actor === this.source;
    if (!frames.length || !mine(frames[0])) {
      const below = frames.some(mine);
      await this.rdp.request(this.thread, 'resume', { resumeLimit: below && action !== 'Resume' ? { type: 'finish' } : null });
      return null;
    }
    const stack = frames.filter(mine);
    const top = stack[0];
    return {
      paused: {
        at: `${top.where.line}:${top.where.column + 1}`,
        stack: stack.map((f) => (f.displayName && f.displayName !== '(global)' ? f.displayName : '(anonymous)')),
        async: segments.filter((s) => s.length),
      },
    };
  }
}

const USER_JS = [
  ['devtools.debugger.remote-enabled', true], ['devtools.chrome.enabled', true],
  ['devtools.debugger.prompt-connection', false], ['devtools.debugger.force-local', true],
  ['browser.shell.checkDefaultBrowser', false], ['browser.startup.page', 0],
  ['browser.startup.homepage_override.mstone', '"ignore"'], ['browser.aboutwelcome.enabled', false],
  ['datareporting.policy.dataSubmissionEnabled', false], ['datareporting.healthreport.uploadEnabled', false],
  ['toolkit.telemetry.enabled', false], ['app.update.enabled', false], ['app.update.auto', false],
  ['browser.safebrowsing.malware.enabled', false], ['browser.safebrowsing.phishing.enabled', false],
  ['browser.safebrowsing.downloads.enabled', false], ['network.captive-portal-service.enabled', false],
  ['network.connectivity-service.enabled', false], ['extensions.update.enabled', false],
  ['browser.search.update', false], ['dom.max_script_run_time', 0], ['javascript.options.asyncstack', true],
].map(([k, v]) => `user_pref("${k}", ${v});`).join('\n');

async function launchFirefox(exe, engine) {
  const dir = fs.mkdtempSync(join(tmpdir(), 'reproduce-firefox-'));
  const profile = join(dir, 'profile');
  const cleanup = () => (rdp?.close(), stop(child, dir));
  let child;
  let rdp;
  try {
    fs.mkdirSync(profile);
    // An execution tier's preferences (`firefox+nojit`).
    const tier = Object.entries(engine?.tier?.prefs ?? {}).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${v});`);
    fs.writeFileSync(join(profile, 'user.js'), [USER_JS, ...tier].join('\n') + '\n');
    fs.writeFileSync(join(dir, 'program.js'), program);
    fs.copyFileSync(join(here, 'prelude.js'), join(dir, 'morphtrace-determinism.js'));
    const first = '<script src="morphtrace-determinism.js"></script>';
    fs.writeFileSync(
      join(dir, 'page.html'),
      `<!DOCTYPE html><meta charset="utf-8"><title>reproduce</title>${first}` +
        `<script src="program.js"></script><script>console.log("${MARKER}")</script>\n`,
    );
    // Firefox takes a port number, not 0: a free one from the kernel, on loopback only.
    const port = await new Promise((ok, fail) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = s.address().port;
        s.close(() => ok(p));
      });
      s.on('error', fail);
    });
    child = spawn(exe, ['--headless', '--no-remote', '--profile', profile, '--start-debugger-server', String(port), 'about:blank'], {
      stdio: 'ignore',
      detached: true,
      // Its temporary files (`remote-settings-startup-bundle-…`, which a killed Firefox
      // leaves) go with its directory.
      env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1', TMPDIR: dir },
    });
    browsers.add(child.pid);
    for (let i = 0; i < 300 && !rdp; i++) {
      await sleep(100);
      rdp = await Rdp.open(port).catch(() => undefined);
    }
    if (!rdp) throw new Error(`${exe} did not open its debugger server`);
    const version = spawnSync(exe, ['--version']).stdout.toString().trim();
    return { session: new FirefoxSession(rdp, dir, engine.breakpointPolicy ?? 'next-breakable'), version, cleanup };
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
  bun: launchBun,
  firefox: launchFirefox,
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
  return p ? p.async.map((s) => `[${s.join(', ')}]`).join(' < ') || '(no async stack)' : JSON.stringify(a);
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
