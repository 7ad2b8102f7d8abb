#!/usr/bin/env bash
# The README's main command: record a campaign on the bundled default and analyze it.
# Until the recorder's strategies land, it writes a synthetic campaign and summarizes it, and
# summarizes the archives checked into traces/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
cargo build --workspace --release --locked -q
bin="$CARGO_TARGET_DIR/release"
out="${1:-out/default.mtrace}"
mkdir -p "$(dirname "$out")"
rm -f "$out"
"$bin/morphtrace-synth" --out "$out" --sessions 2000 --seed 1
"$bin/morphtrace-analyze" info "$out"
