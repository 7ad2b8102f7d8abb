#!/usr/bin/env bash
# Oracles side by side on gen:2001..2060 (never looked at), seed 1, jobs 2.
set -u
R=${R:-morphtrace-record}
O=${O:-traces/yield-gen-2001-2060}
C="--corpus gen:2001..2060 --seeds 1 --jobs 2"
run() { local name=$1; shift; local t0=$(date +%s); $R run "$@" $C --out $O/$name.mtrace > $O/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s) - t0 )) s" >> $O/times; }
run truth-node --strategy truth --engine node
run steps-node --strategy steps --engine node
run tiers-node-jitless --strategy differential --engine node --engine node+jitless
run metamorphic-node --strategy metamorphic --engine node --transformations table1,modern --rounds 3
run differential-node-firefox --strategy differential --engine node --engine firefox
