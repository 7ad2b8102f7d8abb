#!/bin/sh
# A standalone reproducer: LLDB's own command line on program.c, compiled by gcc at -O0 -g.
# A breakpoint on line 3 (`if (argc == 2) x = 1;`), and on line 4 a breakpoint whose callback
# logs and says not to stop: a logpoint, as LLDB's DAP adapter (lldb-vscode) makes one
# (`SBBreakpoint::SetCallback`, its callback returning false). `run` stops at line 3; `thread
# step-in` should end at line 4, the next line that runs. LLDB 16 runs the program to its end:
# the step's single step lands on the logpoint's address, the stop is taken for the logpoint's
# hit, its callback says not to stop, and the step is lost with it.
#
# The near misses, each of which stops at line 4: `thread step-over` onto the same logpoint, and
# `thread step-in` onto line 4's breakpoint disabled. A breakpoint with a false condition or
# `--auto-continue` in place of the callback runs on as the logpoint does; with clang's code for
# the same program, the step in stops at line 4.
#
#   sh reproduce.sh      (lldb-16 and gcc from PATH, or LLDB=/path/to/lldb CC=/path/to/cc)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
lldb=${LLDB:-lldb-16}
cc=${CC:-gcc}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
"$lldb" --version || exit 2
"$cc" -O0 -g -o program program.c || exit 2
cat > logpoint.py <<'PY'
def logged(frame, location, internal_dict):
    print("logpoint: x =", frame.FindVariable("x").GetValue())
    return False
PY

# session STEP LINE4...: line 3's breakpoint, the lldb commands LINE4... for line 4, run, STEP,
# and where the thread is then.
session() {
  step=$1
  shift
  for c in "$@"; do
    set -- "$@" -o "$c"
    shift
  done
  "$lldb" -b -x -o "command script import logpoint.py" -o "breakpoint set -f program.c -l 3" \
    "$@" -o run -o "thread $step" -o "frame info" ./program 2>&1
}
logpoint='breakpoint set -f program.c -l 4'
logs='breakpoint command add -F logpoint.logged 2'

# The near misses: a step over onto the logpoint, a step into onto a disabled breakpoint.
for near in over in; do
  if [ $near = over ]; then
    said=$(session step-over "$logpoint" "$logs") || true
  else
    said=$(session step-in "$logpoint" "breakpoint disable 2") || true
  fi
  case $said in
  *"frame #0: "*"program.c:4"*) ;;
  *)
    printf '%s\n' "$said"
    echo "the near miss (step $near) did not stop at line 4: not the finding's mechanism"
    exit 2
    ;;
  esac
done

said=$(session step-in "$logpoint" "$logs") || true
printf '%s\n' "$said" | grep -v '^ *[0-9]* *	\|^ *\^\|^-> ' | sed -n '1,30p'
case $said in
*"exited with status"*)
  echo "the finding shows: \`thread step-in\` onto a logpoint's line ran the program to its end"
  exit 1
  ;;
*"frame #0: "*"program.c:4"*)
  echo "the finding does not show: \`thread step-in\` ended at line 4"
  exit 0
  ;;
*)
  echo "lldb answered otherwise: see above"
  exit 2
  ;;
esac
