#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
cargo test --workspace --locked "$@"
# The notebooks, executed headless on an export of traces/ (they check their numbers against the analyzer's).
bash scripts/notebooks.sh
