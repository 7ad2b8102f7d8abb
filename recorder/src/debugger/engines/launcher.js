// morphtrace's Node launcher: keeps an idle main context alive for the inspector. The recorder
// compiles and runs the program over CDP (Runtime.compileScript/runScript, as in Chromium), so
// it runs as a classic script with browser-like scoping (cookbook §2.7).
'use strict';
setInterval(() => {}, 1 << 30);
