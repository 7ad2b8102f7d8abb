#!/usr/bin/env bash
# Records tests/fixtures/faults/: for each pair of engines, a differential campaign on the real engines
# and one per planted fault in the first engine's debugger (recorder/examples/fault-matrix.rs),
# on programs not in corpus/: for JavaScript, generated ones and test262's switch tests when a
# test262 checkout is given as TEST262=DIR; for Python, modules of the interpreter's standard
# library run as programs. Read back with: morphtrace-analyze triage --check tests/fixtures/faults
# Usage: scripts/fault-matrix.sh [PAIR...]   (PAIR: chromium:firefox, debugpy:pdb, ...)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
cargo build -q -p morphtrace-recorder --example fault-matrix
bin="$CARGO_TARGET_DIR/debug/examples/fault-matrix"
js=(--corpus 'gen:1..10')
if [ -n "${TEST262:-}" ]; then
  js+=(--corpus "test262:$TEST262/test/language/statements/switch/S12.11_A1_T*.js")
fi
# The Python the engines run (scripts/setup.sh's venv), its standard library's modules.
lib=$("$HOME/.cache/morphtrace/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
py=()
for m in this textwrap colorsys bisect fnmatch reprlib; do py+=(--corpus "$lib/$m.py"); done
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=(chromium:firefox firefox:chromium bun:chromium chromium:bun debugpy:pdb pdb:debugpy)
for p in "${pairs[@]}"; do
  faulty=${p%%:*} against=${p##*:}
  case "$faulty" in
    debugpy*|pdb*) programs=("${py[@]}") seeds=1 ;;
    *) programs=("${js[@]}") seeds=1..2 ;;
  esac
  "$bin" --faulty "$faulty" --against "$against" "${programs[@]}" --seeds "$seeds" \
    --out "tests/fixtures/faults/$faulty-vs-$against"
done
