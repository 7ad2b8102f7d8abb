#!/usr/bin/env bash
# Where the test suite's time goes: runs every test binary of the workspace as `cargo test` does
# (one binary at a time, in its package's directory, libtest's own threads), with each test's time
# (`--report-time`, unstable in libtest, hence RUSTC_BOOTSTRAP for the test binaries only, never for
# rustc). Writes OUT/NAME.txt per binary and OUT/summary (seconds per binary). Usage:
#   bash scripts/test-times.sh [OUT]   (default: target/test-times)
set -u
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
out="${1:-target/test-times}"
mkdir -p "$out"
: > "$out/summary"
cargo test --workspace --locked --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"], m["manifest_path"].rsplit("/", 1)[0], m["target"]["name"] + "-" + m["target"]["kind"][0])
' > "$out/list"
while read -r exe dir name; do
  t0=$(date +%s)
  (cd "$dir" && RUSTC_BOOTSTRAP=1 "$exe" -Z unstable-options --report-time > "$out/$name.txt" 2>&1)
  rc=$?
  echo "$name $(( $(date +%s) - t0 )) s rc=$rc" | tee -a "$out/summary"
done < "$out/list"
echo "slowest tests:"
cat "$out"/*.txt | sed -nE 's/^test (.*) \.\.\. (ok|FAILED|ignored) <([0-9.]+)s>$/\3 \1 \2/p' | sort -rn | head -15
awk '{s += $2} END {print s " s in all test binaries"}' "$out/summary"
