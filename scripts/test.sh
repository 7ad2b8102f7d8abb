#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
# Two test binaries at a time (scripts/test-lanes.py says why); MORPHTRACE_TEST_LANES=1 runs them
# one after another as `cargo test --workspace` does. The notebooks, executed headless on an export
# of traces/ (they check their numbers against the analyzer's), take a lane like a test binary.
python3 scripts/test-lanes.py \
  --also="notebooks=env MORPHTRACE_ANALYZE='$CARGO_TARGET_DIR/debug/morphtrace-analyze' bash scripts/notebooks.sh" \
  --locked "$@"
