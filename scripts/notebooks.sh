#!/usr/bin/env bash
# Executes the notebooks headless against a Parquet export of the archives in traces/, so that
# they cannot rot. Installs the Python side (polars, matplotlib, nbconvert) into a virtualenv
# outside the clone, pinned. Called by scripts/test.sh; run alone: bash scripts/notebooks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
venv="${MT_VENV:-$HOME/.cache/morphtrace/venv}"
log() { printf 'notebooks: %s\n' "$*" >&2; }
reqs=notebooks/requirements.txt
if [ ! -x "$venv/bin/jupyter" ] || ! cmp -s "$reqs" "$venv/requirements.txt"; then
  log "installing $(tr '\n' ' ' < "$reqs")into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$reqs"
  "$venv/bin/python" -m ipykernel install --sys-prefix --name python3 >/dev/null
  cp "$reqs" "$venv/requirements.txt"
fi
# test.sh hands over the analyzer its test build made (MORPHTRACE_ANALYZE): no cargo build then,
# which could replace the binary under tests running beside the notebooks.
analyze="${MORPHTRACE_ANALYZE:-}"
if [ -z "$analyze" ]; then
  cargo build --workspace --locked -q --bin morphtrace-analyze
  analyze="$CARGO_TARGET_DIR/debug/morphtrace-analyze"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$analyze" export traces/ --parquet "$work/parquet" >/dev/null
"$analyze" tables traces/ --format csv --out "$work/tables" >/dev/null
for nb in notebooks/*.ipynb; do
  log "executing $nb"
  # The kernel talks to nbconvert over loopback TCP (jupyter binds 127.0.0.1 by default).
  MT_EXPORT="$work/parquet" MT_TABLES="$work/tables" MT_FIGURES="$work/figures" MPLBACKEND=Agg \
    "$venv/bin/jupyter" nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
    --output-dir "$work/executed" "$nb" >/dev/null
  ls "$work/figures" >&2
done
log "ok"
