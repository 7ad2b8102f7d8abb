#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
# The test binaries through scripts/test-lanes.py: one at a time here, as `cargo test --workspace`
# runs them, until two at a time (MORPHTRACE_TEST_LANES=2, about 15 % shorter, measured) has passed
# whole runs again: in three runs on two lanes, two wall-clock caps set for one binary at a time
# failed (a reduction's budget, Chromium's start-up deadline; both raised since). The notebooks,
# executed headless on an export of traces/ (they check their numbers against the analyzer's),
# run as one more item.
export MORPHTRACE_TEST_LANES="${MORPHTRACE_TEST_LANES:-1}"
python3 scripts/test-lanes.py \
  --also="notebooks=env MORPHTRACE_ANALYZE='$CARGO_TARGET_DIR/debug/morphtrace-analyze' bash scripts/notebooks.sh" \
  --locked "$@"
