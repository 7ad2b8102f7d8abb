#!/bin/sh
# Delve on Go programs nobody here wrote: the `// run` programs of Go's own test suite
# (/usr/share/go-1.19/test, Debian's golang-1.19-src, which golang-go brings), one file each.
# DBDB's random strategy (two seeds) and the debugger against itself (steps), on Delve's
# default build (-N -l). From the repository's root:
#
#   sh traces/go-delve/run.sh
set -eu
tests=${GOTEST:-/usr/share/go-1.19/test}
record=${RECORD:-target/debug/morphtrace-record}
analyze=${ANALYZE:-target/debug/morphtrace-analyze}
out=traces/go-delve
set --
for f in "$tests"/*.go; do
  [ "$(head -n 1 "$f")" = "// run" ] && set -- "$@" --corpus "$f"
done
"$record" run --strategy random --engine delve "$@" --seeds 1..2 --out "$out/random.mtrace"
"$record" run --strategy steps --engine delve "$@" --seeds 1 --out "$out/steps.mtrace"
for a in random steps; do
  "$analyze" info "$out/$a.mtrace" > "$out/$a-info.txt"
  "$analyze" classes "$out/$a.mtrace" > "$out/$a-classes.md"
done
