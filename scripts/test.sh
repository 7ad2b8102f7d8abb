#!/usr/bin/env bash
# The README's test command: installs what the tests need, then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
# No test talks TLS: a machine behind a TLS-inspecting proxy sets NODE_EXTRA_CA_CERTS, and every
# Node start then parses the whole CA bundle (0.1 s of CPU; a Node campaign took 31 % more CPU with
# it). The recorder drops it from the engines it starts (child::AMBIENT_NODE_SETTINGS); this drops
# it from the Node processes the tests start themselves (a bundle's `node reproduce.mjs`).
unset NODE_EXTRA_CA_CERTS
# The test binaries through scripts/test-lanes.py, two at a time (slowest first): the suite is
# CPU-bound, and one binary alone leaves part of the two cores idle (the engine tests take one
# engine at a time). Measured about 15 % shorter than one at a time (docs/benchmarks.md);
# MORPHTRACE_TEST_LANES=1 runs them one after another as `cargo test --workspace` does. The
# notebooks, executed headless on an export of traces/ (they check their numbers against the
# analyzer's), run as one more item.
export MORPHTRACE_TEST_LANES="${MORPHTRACE_TEST_LANES:-2}"
python3 scripts/test-lanes.py \
  --also="notebooks=env MORPHTRACE_ANALYZE='$CARGO_TARGET_DIR/debug/morphtrace-analyze' bash scripts/notebooks.sh" \
  --locked "$@"
