#!/usr/bin/env bash
# GenMorph end to end (issue 8): record the executions of library functions (pinned npm lodash
# and mathjs, StrykerJS mutants), search relations, falsify them, print Table II and run the
# generated tests under node.
#   bash scripts/genmorph.sh [OUT_DIR]     env: SUBJECTS (default all), BUDGET (s/function, 180,
#                                               shared by the rounds), ROUNDS (5), SEED (1),
#                                               FALSIFY_BUDGET (pairs, 2000)
# Rounds: each round but the last is falsified with its own seed, and the next round searches
# again with those counterexamples among the correct states, starting from the round's relations
# (counterexample-guided refinement). The final relations are judged by a falsify run of the
# seed SEED, which no round saw.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/morphtrace/target}"
cargo build --workspace --release --locked -q
bin="$CARGO_TARGET_DIR/release"
out="${1:-out/genmorph}"
subjects="${SUBJECTS:-all}"
seed="${SEED:-1}"
mkdir -p "$out"
if [ ! -f "$out/executions.mtrace" ]; then
  "$bin/morphtrace-record" genmorph --subjects "$subjects" --seed "$seed" --out "$out/executions.mtrace"
fi
rounds="${ROUNDS:-5}"
per_round=$(awk -v b="${BUDGET:-180}" -v r="$rounds" 'BEGIN { print b / r }')
cex=()
warm=()
for round in $(seq 1 "$rounds"); do
  rel="$out/relations.json"
  if [ "$round" -lt "$rounds" ]; then rel="$out/relations-round$round.json"; fi
  "$bin/morphtrace-analyze" genmorph search "$out/executions.mtrace" --budget "$per_round" \
    --seed "$((seed + round - 1))" "${cex[@]}" "${warm[@]}" --out "$rel" | tee "$out/search-round$round.md"
  if [ "$round" -lt "$rounds" ]; then
    report="$out/counterexamples-round$round.json"
    "$bin/morphtrace-record" falsify "$out/executions.mtrace" --relations "$rel" --all \
      --budget "${FALSIFY_BUDGET:-2000}" --seed "$((seed + 1000 + round))" --out "$report"
    cex+=(--counterexamples "$report")
    warm=(--warm "$rel")
  fi
done
"$bin/morphtrace-record" falsify "$out/executions.mtrace" --relations "$out/relations.json" \
  --budget "${FALSIFY_BUDGET:-2000}" --seed "$seed" --out "$out/falsified.json"
"$bin/morphtrace-analyze" genmorph table "$out/executions.mtrace" --relations "$out/relations.json" \
  --falsified "$out/falsified.json" --relations-list | tee "$out/table2.md"
rm -rf "$out/tests"
"$bin/morphtrace-analyze" genmorph tests "$out/executions.mtrace" --relations "$out/relations.json" \
  --falsified "$out/falsified.json" --out "$out/tests"
if compgen -G "$out/tests/*.test.js" >/dev/null; then
  node --test "$out"/tests/*.test.js | tail -n 8
fi
