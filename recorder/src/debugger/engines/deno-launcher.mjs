// morphtrace's Deno launcher. Deno resumes at once from a pause in code that a CDP command
// started, so the recorder does not run the program with Runtime.runScript (as for Node and
// Chromium): it calls __morphtraceRun, which runs the program from a timer, on the event loop,
// as a classic script (node:vm's runInThisContext) under the program's own URL. The promise
// settles when the program ends: with its completion value, or rejected with what it threw.
// An async program ends after its promise reactions: the promise settles from a later timer,
// which runs once every reaction the script queued has run.
import vm from "node:vm";
globalThis.__morphtraceRun = (text, url) =>
  new Promise((resolve, reject) =>
    setTimeout(() => {
      let value;
      try {
        value = new vm.Script(text, { filename: url }).runInThisContext();
      } catch (e) {
        reject(e);
        return;
      }
      setTimeout(() => resolve(value), 0);
    }, 0)
  );
setInterval(() => {}, 1 << 30);
// The recorder waits for this line before it sends anything (see `start` in node.rs).
console.error("morphtrace: launcher ready");
