#!/usr/bin/env node
// A standalone reproducer (written by hand from morphtrace's steps strategy, issue 68): runs
// program.js in a Node process under the Chrome DevTools Protocol, twice: a breakpoint on its
// first line, `Runtime.runScript`, then three `Debugger.stepInto`; the second time the breakpoint
// is removed (`Debugger.removeBreakpoint`) while the program is paused at it, before the steps.
// Removing a breakpoint changes nothing about where the program stands, so both runs must step
// to the same places.
//
//   node cdp.mjs [PATH-TO-NODE]   (default: the node running this script; reproduce.sh runs it)
//
// Exit 1: the finding shows (the steps differ); 0: they agree; 2: it could not run.
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

async function steps(removeFirst) {
  // An idle process (loopback, an ephemeral port) that the script is compiled into.
  const child = spawn(node, ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const ws_url = await new Promise((ok, fail) => {
      let seen = '';
      child.stderr.on('data', (d) => {
        seen += d;
        const m = seen.match(/ws:\/\/\S+/);
        if (m) ok(m[0]);
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
        const t = setTimeout(() => fail(new Error('no pause within 5 s')), 5000);
        const take = () => (clearTimeout(t), ok(paused.shift()));
        if (paused.length) take();
        else wake = take;
      });
    const at = (p) => `${p.callFrames[0].location.lineNumber + 1}:${p.callFrames[0].location.columnNumber + 1}`;
    await call('Runtime.enable');
    await call('Debugger.enable');
    const { scriptId } = await call('Runtime.compileScript', { expression: text, sourceURL: url, persistScript: true });
    const { breakpointId } = await call('Debugger.setBreakpointByUrl', { lineNumber: 0, url, columnNumber: 0 });
    call('Runtime.runScript', { scriptId });
    const seen = [at(await pause())];
    if (removeFirst) await call('Debugger.removeBreakpoint', { breakpointId });
    for (let k = 0; k < 3; k++) {
      await call('Debugger.stepInto');
      seen.push(at(await pause()));
    }
    ws.close();
    return seen;
  } finally {
    child.kill();
  }
}

try {
  const kept = await steps(false);
  const removed = await steps(true);
  console.log(`${node}:`);
  console.log(`  breakpoint kept:    ${kept.join(' ')}`);
  console.log(`  breakpoint removed: ${removed.join(' ')}`);
  const shows = kept.join() !== removed.join();
  console.log(shows ? 'the finding shows' : 'the finding does not show');
  process.exit(shows ? 1 : 0);
} catch (e) {
  console.error(`could not run: ${e.message}`);
  process.exit(2);
}
