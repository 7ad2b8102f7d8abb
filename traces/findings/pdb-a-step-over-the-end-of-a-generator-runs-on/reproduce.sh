#!/bin/sh
# A standalone reproducer: pdb (the standard library's, over its own command interface) on
# program.py. A breakpoint on the generator's last statement (line 3), `continue` to it, then
# `next`: the generator ends, and the `for` loop that consumes it goes on at line 6. pdb's
# `next` should stop there, in the caller (its documentation: "continue execution until the
# next line in the current function is reached or it returns"); CPython 3.11's bdb ignores a
# generator's return event while stepping and waits for a StopIteration in the caller, which a
# `for` loop does not raise, so the program runs on to its end.
#
# The near miss: the same `next` from the generator's first statement (line 2, a `yield`)
# stops at line 3 when the loop resumes the generator.
#
#   sh reproduce.sh      (python3 from PATH, or PYTHON=/path/to/python)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
python=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.py" "$w/" && cd "$w" || exit 2
"$python" --version || exit 2

# session LINE: pdb's words for `break LINE`, `continue`, `next`, `where`, then `quit`.
session() {
  printf 'break %s\ncontinue\nnext\nwhere\nquit\n' "$1" \
    | "$python" -m pdb program.py 2>&1
}

near=$(session 2) || true
case $near in
*"The program finished"*)
  echo "the near miss ran to the end too: not the finding's mechanism"
  printf '%s\n' "$near"
  exit 2
  ;;
esac

said=$(session 3) || true
printf '%s\n' "$said" | sed -n '1,12p'
case $said in
*"after the loop"*"The program finished"*)
  echo "the finding shows: \`next\` at the generator's last statement ran the program to its end"
  exit 1
  ;;
*"program.py(6)<module>()"*)
  echo "the finding does not show: \`next\` stopped in the loop that consumes the generator"
  exit 0
  ;;
*)
  echo "pdb answered otherwise: see above"
  exit 2
  ;;
esac
