#!/usr/bin/env node
// A standalone reproducer (written by hand from morphtrace's steps strategy, issue 68): runs
// program.js in a Node process under the Chrome DevTools Protocol, twice: once with a breakpoint
// on line 2 and one `Debugger.stepInto`, once with a breakpoint on line 3 (the `switch`). The
// step from line 2 must stop where the `switch` starts, where the breakpoint on line 3 pauses,
// and both pauses must show the same scopes.
//
//   node cdp.mjs [PATH-TO-NODE]   (default: the node running this script; reproduce.sh runs it)
//
// Exit 1: the finding shows (the two pauses differ); 0: they agree; 2: it could not run.
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

// Where the program pauses (line:column, 1-based) and the names of the top frame's block and
// local scopes, after a breakpoint on `line` (0-based) and `steps` steps into.
async function pauseAfter(line, steps) {
  const child = spawn(node, ['--inspect=127.0.0.1:0', '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const wsUrl = await new Promise((ok, fail) => {
      let seen = '';
      child.stderr.on('data', (d) => {
        seen += d;
        const m = seen.match(/ws:\/\/\S+/);
        if (m) ok(m[0]);
      });
      child.on('exit', () => fail(new Error(`${node} ended: ${seen}`)));
    });
    const ws = new WebSocket(wsUrl);
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
    await call('Runtime.enable');
    await call('Debugger.enable');
    const { scriptId } = await call('Runtime.compileScript', { expression: text, sourceURL: url, persistScript: true });
    await call('Debugger.setBreakpointByUrl', { lineNumber: line, url, columnNumber: 0 });
    call('Runtime.runScript', { scriptId });
    let p = await pause();
    for (let k = 0; k < steps; k++) {
      await call('Debugger.stepInto');
      p = await pause();
    }
    const top = p.callFrames[0];
    const names = [];
    for (const s of top.scopeChain.filter((s) => s.type === 'block' || s.type === 'local')) {
      const { result } = await call('Runtime.getProperties', { objectId: s.object.objectId, ownProperties: true });
      names.push(...result.map((r) => r.name));
    }
    ws.close();
    return `${top.location.lineNumber + 1}:${top.location.columnNumber + 1} [${names.join(', ')}]`;
  } finally {
    child.kill();
  }
}

try {
  const stepped = await pauseAfter(1, 1);
  const atBreakpoint = await pauseAfter(2, 0);
  console.log(`${node}:`);
  console.log(`  stepped from line 2:     ${stepped}`);
  console.log(`  breakpoint on line 3:    ${atBreakpoint}`);
  const shows = stepped !== atBreakpoint;
  console.log(shows ? 'the finding shows' : 'the finding does not show');
  process.exit(shows ? 1 : 0);
} catch (e) {
  console.error(`could not run: ${e.message}`);
  process.exit(2);
}
