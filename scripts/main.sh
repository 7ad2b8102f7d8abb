#!/usr/bin/env bash
# The README's main command: record a small differential campaign (Chromium vs Node, DBDB
# Algorithm 1) over the bundled default corpus, then analyze the archive.
#   bash scripts/main.sh [OUT.mtrace]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
cargo build --workspace --release --locked -q
bin="$CARGO_TARGET_DIR/release"
out="${1:-out/default.mtrace}"
corpus=../shared/corpus/dbdb
[ -d "$corpus" ] || corpus=tests/fixtures
mkdir -p "$(dirname "$out")"
rm -f "$out"
"$bin/morphtrace-record" engines
"$bin/morphtrace-record" run --engine chromium --engine node --strategy differential \
  --corpus "$corpus" --seeds 1..2 --jobs 2 --name "default: DBDB corpus, Chromium vs Node" --out "$out"
"$bin/morphtrace-analyze" info "$out"
# The first few divergences, event by event.
"$bin/morphtrace-analyze" show "$out" --diverged --limit 3
