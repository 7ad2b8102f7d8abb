// morphtrace's Bun launcher. Bun transpiles the files it runs (positions would be its output's,
// mapped back by a source map), but code compiled by node:vm is JavaScriptCore's own: the
// program runs unmodified as a classic script under its own URL, so every position is in its
// own text.
//
// __morphtraceCompile(text, url) checks the syntax and keeps the script. __morphtraceRun() runs
// it from a timer, on the event loop, and returns a promise that settles when the program ends:
// {ok: true}, or {ok: false, ...} with what it threw. The `debugger` statement is where the
// recorder takes over: JavaScriptCore hands the program's source to the debugger only when it
// runs, so the recorder steps from here into the program's first statement, where the script is
// known and breakpoints resolve to exact positions (see bun.rs).
"use strict";
const vm = require("node:vm");
let script = null;
globalThis.__morphtraceCompile = function (text, url) {
  script = null;
  try {
    script = new vm.Script(text, { filename: url });
    return { ok: true };
  } catch (e) {
    return { ok: false, message: String(e) };
  }
};
// The run's promise settles from a later timer: an async program has ended only once the
// promise reactions its script queued (and their pauses) have run.
globalThis.__morphtraceRun = function () {
  return new Promise(function (resolve) {
    setTimeout(function () {
      debugger;
      var ran;
      try {
        script.runInThisContext();
        ran = { ok: true };
      } catch (e) {
        ran = { ok: false, message: describe(e), stack: String(e && e.stack) };
      }
      setTimeout(function () {
        resolve(ran);
      }, 0);
    }, 0);
  });
};
function describe(e) {
  try {
    return String(e);
  } catch (_) {
    return "exception";
  }
}
// A program must not kill its own process: a death by a signal is then Bun's own crash (the
// recorder reports it as the engine's, see jsc/session.rs).
process.abort = function () {
  throw new Error("process.abort is not available to programs run by morphtrace");
};
process.kill = function () {
  throw new Error("process.kill is not available to programs run by morphtrace");
};
setInterval(function () {}, 1 << 30);
// The recorder waits for this line before it connects (see `start` in bun.rs).
console.error("morphtrace: launcher ready");
