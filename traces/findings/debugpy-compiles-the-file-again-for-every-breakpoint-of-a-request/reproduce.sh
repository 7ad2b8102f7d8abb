#!/bin/sh
# A standalone reproducer: debugpy (its adapter, driven over the Debug Adapter Protocol by
# client.py, which needs nothing but the standard library) on program.py, run by counter.py,
# which counts each compile() of program.py's source (CPython's `compile` audit event).
# Paused in program.py, client.py sends setBreakpoints with the body lines of its 40 functions,
# the same request again, then one with a single line. A debugger that reads a file's line table
# once per request compiles it at most once each time; debugpy 1.8.22 compiles the whole file
# once per breakpoint of every request (pydevd's add_breakpoint, `_get_code_lines`): 40, 40, 1.
#
# The near miss: the single-line request, which compiles once either way.
#
#   sh reproduce.sh      (python3 from PATH with debugpy importable, or PYTHON=/path/to/python
#                         and DEBUGPY_PATH=/dir/holding/debugpy)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.py" "$here/counter.py" "$here/client.py" "$w/" && cd "$w" || exit 2
if [ -n "${DEBUGPY_PATH:-}" ]; then
  PYTHONPATH=$DEBUGPY_PATH
  export PYTHONPATH
fi
"$python" --version || exit 2
"$python" -c 'import debugpy; print("debugpy", debugpy.__version__)' || exit 2

said=$("$python" client.py) || exit 2
printf '%s\n' "$said"
count() { printf '%s\n' "$said" | sed -n "$1p" | sed 's/.*: \([0-9]*\) compiles.*/\1/'; }
first=$(count 1)
again=$(count 2)
one=$(count 3)
if [ "$one" != 1 ]; then
  echo "the single-line request compiled program.py $one times, not once: not the finding's mechanism"
  exit 2
fi
if [ "$first" = 40 ] && [ "$again" = 40 ]; then
  echo "the finding shows: each request of 40 breakpoints compiled program.py 40 times"
  exit 1
fi
if [ "$first" -le 1 ] && [ "$again" -le 1 ]; then
  echo "the finding does not show: a request compiled program.py at most once"
  exit 0
fi
echo "debugpy compiled program.py $first and $again times: see above"
exit 2
