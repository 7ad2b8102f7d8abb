#!/usr/bin/env bash
# Submits a morphtrace campaign to Slurm as N shards (a job array, one shard per task) and a
# merge job that runs once every shard has ended:
#   deploy/slurm/submit.sh -n 16 -o /shared/results/nightly [-p PARTITION] -- \
#       run --engine chromium --engine node --strategy differential --corpus /shared/corpus --seeds 1..500
# RESULTS must be on a file system every node sees. The binaries are found on PATH, or set
# MORPHTRACE_RECORD / MORPHTRACE_ANALYZE (exported to the jobs). Prints the two job ids.
# Extra sbatch options (time limits, accounts, ...) go in SBATCH_* environment variables, which
# sbatch reads itself. With -w, waits for the merge and exits with its status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=; results=; partition=(); wait=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) shards=$2; shift 2 ;;
    -o) results=$2; shift 2 ;;
    -p) partition=(--partition "$2"); shift 2 ;;
    -w) wait=(--wait); shift ;;
    --) shift; break ;;
    *) echo "submit.sh: unknown option $1 (usage: submit.sh -n SHARDS -o RESULTS [-p PARTITION] [-w] -- ARGS...)" >&2; exit 2 ;;
  esac
done
if [ -z "$shards" ] || [ -z "$results" ] || [ $# -eq 0 ]; then
  echo "usage: submit.sh -n SHARDS -o RESULTS [-p PARTITION] [-w] -- morphtrace-record ARGS..." >&2
  exit 2
fi
case "$shards" in ''|*[!0-9]*|0) echo "submit.sh: -n takes a positive number, not $shards" >&2; exit 2 ;; esac
mkdir -p "$results"
results=$(cd "$results" && pwd)
array=$(sbatch --parsable "${partition[@]}" --array="0-$((shards - 1))" \
  --output="$results/shard-%a.log" --export=ALL "$here/campaign.sbatch" "$results" -- "$@")
array=${array%%;*}
echo "array $array"
if [ "${#wait[@]}" -gt 0 ]; then
  sbatch "${wait[@]}" "${partition[@]}" --dependency="afterany:$array" \
    --output="$results/merge.log" --export=ALL "$here/merge.sbatch" "$results" "$shards"
else
  merge=$(sbatch --parsable "${partition[@]}" --dependency="afterany:$array" \
    --output="$results/merge.log" --export=ALL "$here/merge.sbatch" "$results" "$shards")
  echo "merge ${merge%%;*}"
fi
