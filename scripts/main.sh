#!/usr/bin/env bash
# The README's main command: record two small differential campaigns (DBDB Algorithm 1) over the
# bundled default corpus, Chromium vs Node and Chromium vs Firefox, a coverage campaign (Cod
# and C2V on gcov and llvm-cov over Csmith programs, V8 over the JS corpus) and a metamorphic one
# (ISSTA 2019: chains of five follow-ups on Chromium and on Node), then analyze the
# archives (summary, equivalence classes, the papers' tables, an HTML report, a Parquet export).
#   bash scripts/main.sh [OUT.mtrace]      (the Firefox one is written beside it, *-firefox.mtrace)
# The build is the one the tests use (a debug build: 5-6 minutes cold on 2 cores, where a release
# build of polars and swc takes about 20); MT_PROFILE=release builds and runs optimized binaries.
# GENMORPH=1 adds GenMorph on four library functions (several minutes more; scripts/genmorph.sh
# alone runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
steps=$(( ${GENMORPH:-0} == 1 ? 8 : 7 ))
step=0
progress() { step=$((step + 1)); printf 'main: step %d/%d: %s (%ds so far)\n' "$step" "$steps" "$*" "$SECONDS" >&2; }
progress "installing what is missing (scripts/setup.sh)"
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
progress "building (${MT_PROFILE:-dev} profile)"
if [ "${MT_PROFILE:-dev}" = release ]; then
  cargo build --workspace --release --locked -q
  bin="$CARGO_TARGET_DIR/release"
else
  cargo build --workspace --locked -q
  bin="$CARGO_TARGET_DIR/debug"
fi
out="${1:-out/default.mtrace}"
out_ff="${out%.mtrace}-firefox.mtrace"
out_cov="${out%.mtrace}-coverage.mtrace"
out_mm="${out%.mtrace}-metamorphic.mtrace"
corpus=corpus/dbdb
mkdir -p "$(dirname "$out")"
rm -f "$out" "$out_ff" "$out_cov" "$out_mm"
progress "the engines found here"
"$bin/morphtrace-record" engines
progress "two differential campaigns: Chromium vs Node, Chromium vs Firefox"
"$bin/morphtrace-record" run --engine chromium --engine node --strategy differential \
  --corpus "$corpus" --seeds 1..2 --jobs 2 --name "default: DBDB corpus, Chromium vs Node" --out "$out"
"$bin/morphtrace-record" run --engine chromium --engine firefox --strategy differential \
  --corpus "$corpus" --seeds 1..2 --jobs 2 --name "default: DBDB corpus, Chromium vs Firefox" --out "$out_ff"
progress "a coverage campaign: gcov, llvm-cov and V8"
"$bin/morphtrace-record" run --strategy coverage --engine gcov --engine llvm-cov --engine v8 \
  --corpus csmith:1..20 --corpus "$corpus" --jobs 2 --name "default: Csmith 1..20 and the DBDB corpus, Cod" \
  --out "$out_cov"
progress "a metamorphic campaign on Chromium and Node"
"$bin/morphtrace-record" run --engine chromium --engine node --strategy metamorphic --rounds 5 \
  --corpus "$corpus" --seeds 1..2 --jobs 2 --name "default: DBDB corpus, metamorphic, Chromium and Node" \
  --out "$out_mm"
progress "analyzing: info, classes, tables, report, export, show"
"$bin/morphtrace-analyze" info "$out" "$out_ff" "$out_cov" "$out_mm"
# Equivalence classes, the papers' tables and an HTML report of both campaigns; Parquet for the notebooks.
"$bin/morphtrace-analyze" classes "$out_ff" --top 10
"$bin/morphtrace-analyze" tables "$out" "$out_ff" --paper dbdb
"$bin/morphtrace-analyze" tables "$out_cov" --paper cod --top 10
"$bin/morphtrace-analyze" sample "$out_cov" -n 3 --context 2
"$bin/morphtrace-analyze" tables "$out_mm" --paper issta
"$bin/morphtrace-analyze" classes "$out_mm" --top 10
"$bin/morphtrace-analyze" report "$out" "$out_ff" --out "$(dirname "$out")/report.html"
"$bin/morphtrace-analyze" export "$out" "$out_ff" --parquet "$(dirname "$out")/parquet" >/dev/null
# The first few divergences, event by event.
"$bin/morphtrace-analyze" show "$out" --diverged --limit 2
"$bin/morphtrace-analyze" show "$out_ff" --diverged --limit 3
# GenMorph on four library functions with a short budget: executions, relations, falsification,
# Table II and the generated node tests (scripts/genmorph.sh; BUDGET=180 and SUBJECTS=all for the full run).
if [ "${GENMORPH:-0}" = 1 ]; then
  progress "GenMorph on four library functions"
  out_gm="$(dirname "$out")/genmorph"
  rm -rf "$out_gm"
  SUBJECTS=mathjs.gcd,mathjs.pow,lodash.repeat,lodash.padStart BUDGET=30 bash scripts/genmorph.sh "$out_gm"
fi
printf 'main: done in %ds; archives, report.html and parquet/ in %s\n' "$SECONDS" "$(dirname "$out")" >&2
