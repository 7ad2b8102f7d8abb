#!/bin/sh
# A standalone reproducer written by morphtrace: V8's block coverage of one statement of
# program.js against how often that statement runs (counted.js is program.js with a counter
# before every statement; the statement here has counter @COUNTER@).
#
#   sh reproduce.sh      (node from PATH, or NODE=PATH; any Node.js with node:inspector)
#
# Both run as classic scripts in a fresh vm context each (after prelude.js when there is one,
# as morphtrace ran them), the program under precise coverage with call counts and block
# granularity, taken over Node's in-process inspector. V8's count of a statement is the count of
# the innermost range holding its first character (UTF-16 offset @OFFSET@, line @LINE@).
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
const LINE = @LINE@, OFFSET = @OFFSET@, COUNTER = @COUNTER@, COUNTERS = @COUNTERS@, KIND = '@KIND@';
@HARNESS@(async () => {
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const p = run('program.js', {});
  const cov = await post('Profiler.takePreciseCoverage');
  await post('Profiler.stopPreciseCoverage');
  const url = path.join(here, 'program.js');
  const script = cov.result.find((s) => s.url === url || s.url === 'file://' + url);
  if (!script) throw new Error('V8 reported no coverage of program.js');
  // The innermost range holding the offset: a later start, or the same start with an earlier end.
  let best = null;
  for (const f of script.functions)
    for (const r of f.ranges)
      if (r.startOffset <= OFFSET && OFFSET < r.endOffset &&
          (!best || r.startOffset > best.startOffset || (r.startOffset === best.startOffset && r.endOffset <= best.endOffset)))
        best = r;
  const v8 = best ? best.count : null;
  const sandbox = { __morphtrace_counts: new Array(COUNTERS).fill(0) };
  const c = run('counted.js', sandbox);
  const ran = sandbox.__morphtrace_counts[COUNTER];
  const line = read('program.js').split('\n')[LINE - 1].trim();
  console.log(`line ${LINE} (${line}): V8 ${process.versions.v8} counts ${v8 ?? 'nothing'}; it ran ${ran} times`);
  if (p.out !== c.out || p.threw !== c.threw) {
    console.error('reproduce.sh: program.js and counted.js behave differently: not comparable');
    process.exit(2);
  }
  const shows = KIND === 'strong' ? v8 !== null && v8 !== ran : (v8 === null) !== (ran === null);
  console.log(shows ? 'the finding shows: V8 counts it wrongly' : 'the finding does not show: V8 counts it right');
  process.exit(shows ? 1 : 0);
})().catch((e) => {
  console.error(`reproduce.sh: ${e.message}`);
  process.exit(2);
});
EOF
