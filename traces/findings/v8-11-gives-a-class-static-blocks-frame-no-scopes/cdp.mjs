#!/usr/bin/env node
// A standalone reproducer (written by hand from morphtrace's ground-truth strategy, issue 68):
// runs program.js in a Node process under the Chrome DevTools Protocol with a breakpoint on line
// 4, inside a class's static block, where the program itself reads `acc` (a top-level `let`,
// 0 there). At that pause it lists the scopes of the top frame (`Debugger.paused`'s scopeChain)
// and the names each holds (`Runtime.getProperties`). The block's code reads `acc`, so the
// scope that holds it (the script scope) must be on the frame's scope chain, as it is on every
// other frame of the program.
//
//   node cdp.mjs [PATH-TO-NODE]   (default: the node running this script; reproduce.sh runs it)
//
// Exit 1: the finding shows (no scope of the frame holds `acc`); 0: one does; 2: it could not run.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof WebSocket === 'undefined') {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 2);
}
const node = process.argv[2] ?? process.execPath;
const text = fs.readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'program.js'), 'utf8');
const url = 'file:///program.js';

async function scopes() {
  // An idle process (loopback, an ephemeral port) that the script is compiled into.
  const child = spawn(node, ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const ws_url = await new Promise((ok, fail) => {
      let seen = '';
      const t = setTimeout(() => fail(new Error(`${node} did not start its inspector within 60 s`)), 60_000);
      child.stderr.on('data', (d) => {
        seen += d;
        const m = seen.match(/ws:\/\/\S+/);
        if (m) (clearTimeout(t), ok(m[0]));
      });
      child.on('exit', () => fail(new Error(`${node} ended: ${seen}`)));
    });
    const ws = new WebSocket(ws_url);
    await new Promise((ok) => (ws.onopen = ok));
    let id = 0;
    const replies = new Map();
    const paused = [];
    let wake = () => {};
    ws.onmessage = (m) => {
      const j = JSON.parse(m.data);
      if (j.id) replies.get(j.id)(j.result ?? j.error);
      else if (j.method === 'Debugger.paused') (paused.push(j.params), wake());
    };
    const call = (method, params = {}) =>
      new Promise((ok) => (replies.set(++id, ok), ws.send(JSON.stringify({ id, method, params }))));
    const pause = () =>
      new Promise((ok, fail) => {
        const t = setTimeout(() => fail(new Error('no pause within 60 s')), 60_000);
        const take = () => (clearTimeout(t), ok(paused.shift()));
        if (paused.length) take();
        else wake = take;
      });
    await call('Runtime.enable');
    await call('Debugger.enable');
    const { scriptId } = await call('Runtime.compileScript', { expression: text, sourceURL: url, persistScript: true });
    await call('Debugger.setBreakpointByUrl', { lineNumber: 3, url, columnNumber: 0 });
    call('Runtime.runScript', { scriptId });
    const p = await pause();
    const top = p.callFrames[0];
    const out = [];
    for (const s of top.scopeChain) {
      // The global scope's object is the global object: its properties are not the program's.
      if (s.type === 'global') {
        out.push({ type: s.type, names: ['(the global object)'] });
        continue;
      }
      const { result } = await call('Runtime.getProperties', { objectId: s.object.objectId, ownProperties: true });
      out.push({ type: s.type, names: result.map((r) => r.name) });
    }
    await call('Debugger.resume');
    ws.close();
    return { at: `${top.location.lineNumber + 1}:${top.location.columnNumber + 1}`, fn: top.functionName, out };
  } finally {
    child.kill();
  }
}

try {
  const { at, fn, out } = await scopes();
  const version = (await import('node:child_process')).spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`${node} (${version}): paused at ${at} in ${fn || '(top level)'}; its scopes:`);
  for (const s of out) console.log(`  ${s.type}: ${s.names.join(', ') || '(none)'}`);
  const shows = !out.some((s) => s.names.includes('acc'));
  console.log(shows ? 'the finding shows: no scope of the frame holds `acc`, which the block reads (0)' : 'the finding does not show');
  process.exit(shows ? 1 : 0);
} catch (e) {
  console.error(`could not run: ${e.message}`);
  process.exit(2);
}
