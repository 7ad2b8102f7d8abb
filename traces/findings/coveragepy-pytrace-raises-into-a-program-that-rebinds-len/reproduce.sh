#!/bin/sh
# A standalone reproducer written by morphtrace: coverage.py (`coverage run --branch`, then
# `coverage json`) on program.py, for one line or arc, under one relation:
#   c2v    two cores of coverage.py on program.py agree on whether it ran (kind output: the
#          program prints and exits alike under both, as it does without coverage.py);
#   cod    program.py (P) and variant.py (P', P without code the core reported unexecuted) print
#          the same, and agree on every line they share (line 1 of P is 1 of P');
#   truth  the core says the line ran exactly when count.py (program.py with a counter before
#          every statement) counts it.
#
#   sh reproduce.sh      (python3 from PATH with coverage.py importable, or PYTHON=/path/to/python
#                         and COVERAGE_PATH=/dir/holding/coverage)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
relation=c2v
kind=output
line=1
line_b=1
arc=''
core_a=ctrace
core_b=pytrace
python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here"/*.py "$w/" && cd "$w" || exit 2
: > empty.rc
if [ -n "${COVERAGE_PATH:-}" ]; then
  PYTHONPATH=$COVERAGE_PATH
  export PYTHONPATH
fi
"$python" -m coverage --version | head -1 || exit 2

# run CORE FILE: FILE under coverage.py with CORE; its output and exit status in FILE.CORE.out.
run() {
  COVERAGE_CORE=$1 "$python" -m coverage run --branch --rcfile=empty.rc \
    --data-file="$2.$1.data" "$2" > "$2.$1.out" 2> "$2.$1.err"
  echo "exit $?" >> "$2.$1.out"
  "$python" -m coverage json -q --rcfile=empty.rc --data-file="$2.$1.data" -o "$2.$1.json" \
    > /dev/null 2>&1 || { echo "coverage json failed on $2 ($1)" >&2; return 2; }
}

# said CORE FILE LINE: what coverage.py's report says of LINE (or of the arc from it).
said() {
  "$python" - "$2.$1.json" "$2" "$3" "$arc" <<'EOF'
import json, os, sys
report, name, line, arc = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
files = json.load(open(report))["files"]
f = next((v for k, v in files.items() if os.path.basename(k) == name), None)
if f is None:
    print("no information")
elif arc:
    to = arc.split("->")[1]
    to = -int(to[5:-1]) if to.startswith("exit(") else int(to)
    # The arc leaves the recorded line (P's) or its counterpart (P').
    shift = line - int(arc.split("->")[0])
    if to > 0:
        to += shift
    pair = [line, to]
    print("taken" if pair in f.get("executed_branches", [])
          else "not taken" if pair in f.get("missing_branches", []) else "no information")
else:
    print("ran" if line in f["executed_lines"]
          else "not run" if line in f["missing_lines"] else "no information")
EOF
}

case $relation in
c2v)
  run "$core_a" program.py || exit 2
  run "$core_b" program.py || exit 2
  if [ "$kind" = output ]; then
    "$python" program.py > plain.out 2> plain.err
    echo "exit $?" >> plain.out
    for c in "$core_a" "$core_b"; do
      if cmp -s plain.out "program.py.$c.out"; then
        echo "under $c: as without coverage.py ($(tail -1 plain.out))"
      else
        echo "under $c: not as without coverage.py:"
        diff plain.out "program.py.$c.out" | head -20
        tail -12 "program.py.$c.err"
      fi
    done
    if cmp -s "program.py.$core_a.out" "program.py.$core_b.out"; then
      echo "the finding does not show: the program prints and exits alike under both cores"
      exit 0
    fi
    echo "the finding shows: the program prints or exits differently under $core_a and $core_b"
    exit 1
  fi
  a=$(said "$core_a" program.py "$line") || exit 2
  b=$(said "$core_b" program.py "$line") || exit 2
  what="line $line${arc:+ (arc $arc)}: $core_a says $a, $core_b says $b"
  ;;
cod)
  run "$core_a" program.py || exit 2
  run "$core_a" variant.py || exit 2
  if ! cmp -s "program.py.$core_a.out" "variant.py.$core_a.out"; then
    echo "P and P' print or exit differently under $core_a:"
    diff "program.py.$core_a.out" "variant.py.$core_a.out" | head -20
    echo "the finding shows: deleting code $core_a reported unexecuted changed the program"
    exit 1
  fi
  a=$(said "$core_a" program.py "$line") || exit 2
  b=$(said "$core_a" variant.py "$line_b") || exit 2
  what="$core_a: line $line of P${arc:+ (arc $arc)} $a, line $line_b of P' $b"
  ;;
truth)
  run "$core_a" program.py || exit 2
  a=$(said "$core_a" program.py "$line") || exit 2
  MORPHTRACE_COUNTS=counts.json "$python" count.py program.py > counted.out 2> counted.err
  echo "exit $?" >> counted.out
  cmp -s "program.py.$core_a.out" counted.out \
    || { echo "the counted program behaves differently: not comparable"; exit 2; }
  n=$("$python" -c "import json,sys; print(json.load(open('counts.json')).get(sys.argv[1], 'none'))" "$line")
  case $n in
  none) b="no information" ;;
  0) b="not run" ;;
  *) b="ran" ;;
  esac
  what="line $line: $core_a says $a, its counter says $b ($n times)"
  ;;
*)
  echo "unknown relation $relation" >&2
  exit 2
  ;;
esac
echo "$what"
if [ "$a" != "$b" ]; then
  echo "the finding shows"
  exit 1
fi
echo "the finding does not show: they agree"
exit 0
