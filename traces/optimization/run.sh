#!/bin/sh
# Regenerates traces/optimization/: the optimization oracle (-O0 against -O2 under one native
# debugger) on the bundled C programs and on five Csmith programs nobody here wrote (seeds 11..15,
# generated afresh: Csmith's output is a function of its seed and version). Run from the
# repository's root after `cargo build --workspace`; B names the binaries' directory.
set -eu
B=${B:-target/debug}
out=traces/optimization
programs=$(mktemp -d)
trap 'rm -rf "$programs"' EXIT
for s in 11 12 13 14 15; do
  (cd "$programs" && csmith --seed "$s" --max-funcs 3 --no-packed-struct > "cs$s.c")
done
rm -f "$programs/platform.info"
for e in gdb lldb; do
  rm -f "$out/$e-corpus.mtrace" "$out/$e-csmith.mtrace"
  "$B/morphtrace-record" run --strategy optimization --engine "$e+gcc-O0" --engine "$e+gcc-O2" \
    --corpus corpus/c --out "$out/$e-corpus.mtrace"
  "$B/morphtrace-record" run --strategy optimization --engine "$e+gcc-O0" --engine "$e+gcc-O2" \
    --corpus "$programs" --max-pauses 2000 --session-timeout 120 --out "$out/$e-csmith.mtrace"
done
