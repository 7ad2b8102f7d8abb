#!/usr/bin/env bash
# Oracles side by side on gen:2001..2060 (never looked at), seed 1, jobs 2: for each engine its
# single-engine oracles (ground truth, the debugger against itself, the engine against itself by
# tier, the metamorphic relations) beside its two-family differential against Node.
# Usage: run.sh [ENGINE...] (default: node firefox bun); an archive already there is kept.
set -u
R=${R:-morphtrace-record}
O=${O:-traces/yield-gen-2001-2060}
C="--corpus gen:2001..2060 --seeds 1 --jobs 2"
run() {
  local name=$1; shift
  [ -e "$O/$name.mtrace" ] && return
  local t0=$(date +%s)
  $R run "$@" $C --out "$O/$name.mtrace" > "$O/$name.log" 2>&1
  echo "$name rc=$? $(( $(date +%s) - t0 )) s" >> "$O/times"
}
tier() { case $1 in node) echo jitless;; firefox) echo nojit;; bun) echo nojit;; esac; }
for e in "${@:-node firefox bun}"; do
  for e in $e; do
    run truth-$e --strategy truth --engine $e
    run steps-$e --strategy steps --engine $e
    run tiers-$e-$(tier $e) --strategy differential --engine $e --engine $e+$(tier $e)
    run metamorphic-$e --strategy metamorphic --engine $e --transformations table1,modern --rounds 3
    [ $e = node ] && run differential-node-firefox --strategy differential --engine node --engine firefox
    [ $e = bun ] && run differential-node-bun --strategy differential --engine node --engine bun
  done
done
