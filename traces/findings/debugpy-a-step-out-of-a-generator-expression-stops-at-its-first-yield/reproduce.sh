#!/bin/sh
# A standalone reproducer: debugpy (its adapter, driven over the Debug Adapter Protocol by
# client.py, which needs nothing but the standard library) on program.py. A breakpoint on
# line 10 of `main`, `next` to line 11 (`doubled = tuple(note(x) for x in xs)`), `stepIn` into
# the generator expression, then `stepOut`. The step out should stop once the generator
# expression's frame returns, after `tuple` consumed all three elements (`seen` is [1, 2, 3]):
# so does pydevd's sys.monitoring backend (Python 3.12 and later). pydevd's settrace tracer stops
# in `main` at the expression's first `yield`, with one element made (`seen` is [1]).
#
# The near miss: near.py does the same with a `def` generator (`doubles`); its step out stops in
# `main` after the generator ended, under either tracer.
#
#   sh reproduce.sh      (python3 from PATH with debugpy importable, or PYTHON=/path/to/python
#                         and DEBUGPY_PATH=/dir/holding/debugpy; PYDEVD_USE_SYS_MONITORING=1
#                         picks the sys.monitoring backend on Python 3.12 or later)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.py" "$here/near.py" "$here/client.py" "$w/" && cd "$w" || exit 2
if [ -n "${DEBUGPY_PATH:-}" ]; then
  PYTHONPATH=$DEBUGPY_PATH
  export PYTHONPATH
fi
"$python" --version || exit 2
"$python" -c 'import debugpy; print("debugpy", debugpy.__version__)' || exit 2

near=$("$python" client.py near.py 15 next stepIn stepOut) || exit 2
printf 'near.py (a def generator): %s\n' "$(printf '%s' "$near" | tail -1)"
case $near in
*"stop main 16 seen=[1, 2, 3]") ;;
*)
  echo "the near miss's step out did not end after the generator: not the finding's mechanism"
  printf '%s\n' "$near"
  exit 2
  ;;
esac

said=$("$python" client.py program.py 10 next stepIn stepOut) || exit 2
printf '%s\n' "$said"
case $said in
*"stop main 11 seen=[1]")
  echo "the finding shows: the step out of the generator expression stopped at its first yield"
  exit 1
  ;;
*"stop main 11 seen=[1, 2, 3]")
  echo "the finding does not show: the step out stopped after the generator expression returned"
  exit 0
  ;;
*)
  echo "debugpy answered otherwise: see above"
  exit 2
  ;;
esac
