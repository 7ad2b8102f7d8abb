// morphtrace's Node launcher: keeps an idle main context alive for the inspector. The recorder
// compiles and runs the program over CDP (Runtime.compileScript/runScript, as in Chromium), so
// it runs as a classic script with browser-like scoping (docs/debugger-protocols.md §2.7).
'use strict';
setInterval(() => {}, 1 << 30);
// Node's environment is set up once this runs: the recorder waits for this line before it sends
// anything that needs it (see `start` in node.rs).
process.stderr.write('morphtrace: launcher ready\n');
