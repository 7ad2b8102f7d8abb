#!/bin/sh
# A standalone reproducer written by morphtrace: V8's block coverage of program.js (P) against
# that of variant.js (P', P without code V8 reported unexecuted: Cod's relation says every line
# the two share runs as often in both). Line @LINE@ of P is line @LINE_B@ of P'.
#
#   sh reproduce.sh      (node from PATH, or NODE=PATH; any Node.js with node:inspector)
#
# Both run as classic scripts in a fresh vm context each (after prelude.js when there is one,
# as morphtrace ran them) under precise coverage with call counts and block granularity, taken
# over Node's in-process inspector. A line's count is that of the innermost range holding its
# first token (UTF-16 offset @OFFSET@ in P, @OFFSET_B@ in P').
#
# Exit 1: the finding shows (the counts differ); 0: they agree; 2: it could not run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
"${NODE:-node}" - "$here" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const inspector = require('node:inspector');
const [here] = process.argv.slice(2);
const LINE = @LINE@, LINE_B = @LINE_B@, OFFSET = @OFFSET@, OFFSET_B = @OFFSET_B@, KIND = '@KIND@';
@HARNESS@// V8's count at `offset` of `file` run under precise coverage, and how the run ended.
async function count(file, offset) {
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const r = run(file, {});
  const cov = await post('Profiler.takePreciseCoverage');
  await post('Profiler.stopPreciseCoverage');
  const url = path.join(here, file);
  const script = cov.result.find((s) => s.url === url || s.url === 'file://' + url);
  if (!script) throw new Error(`V8 reported no coverage of ${file}`);
  // The innermost range holding the offset: a later start, or the same start with an earlier end.
  let best = null;
  for (const f of script.functions)
    for (const g of f.ranges)
      if (g.startOffset <= offset && offset < g.endOffset &&
          (!best || g.startOffset > best.startOffset || (g.startOffset === best.startOffset && g.endOffset <= best.endOffset)))
        best = g;
  return { n: best ? best.count : null, ...r };
}

(async () => {
  const p = await count('program.js', OFFSET);
  const v = await count('variant.js', OFFSET_B);
  const line = read('program.js').split('\n')[LINE - 1].trim();
  console.log(`line ${LINE} (${line}): V8 ${process.versions.v8} counts ${p.n ?? 'nothing'} in program.js, ${v.n ?? 'nothing'} in variant.js (line ${LINE_B})`);
  if (p.out !== v.out || p.threw !== v.threw) {
    console.error('reproduce.sh: program.js and variant.js behave differently: Cod compares only programs that print the same');
    process.exit(2);
  }
  const shows = KIND === 'strong' ? p.n !== null && v.n !== null && p.n !== v.n : (p.n === null) !== (v.n === null);
  console.log(shows ? "the finding shows: V8 counts the line differently in P and P'" : 'the finding does not show: the counts agree');
  process.exit(shows ? 1 : 0);
})().catch((e) => {
  console.error(`reproduce.sh: ${e.message}`);
  process.exit(2);
});
EOF
