#!/bin/sh
# A standalone reproducer written by morphtrace: program.c built as each side of the finding
# built it, actions.json replayed on each debugger through its own Python API (drive.py: gdb's
# `gdb` module, LLDB's `lldb` module), and the answers of the finding's step compared.
#
#   sh reproduce.sh     (gdb, lldb-16, gcc, clang, python3 from PATH, or GDB=, LLDB=, GCC=, CLANG=)
#
# Exit 1: the finding shows; 0: it does not; 2: a tool failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$here/actions.json" "$here/finding.json" "$here/drive.py" "$w/" && cd "$w" || exit 2

# side N DEBUGGER COMPILER LEVEL: builds program.c for side N and replays the actions there.
side() {
  n=$1 debugger=$2 compiler=$3 level=$4
  case $compiler in
  gcc) cc=${GCC:-gcc} ;;
  *) cc=${CLANG:-clang} ;;
  esac
  mkdir "side$n" && cp program.c "side$n/" || return 2
  # Csmith's programs include its header, as the recording's builds did.
  (cd "side$n" && "$cc" -"$level" -g -w -I "${CSMITH_INCLUDE:-/usr/include/csmith}" -o prog program.c) ||
    { echo "$cc failed" >&2; return 2; }
  export MT_PROGRAM="$w/side$n/prog" MT_ACTIONS="$w/actions.json" MT_ANSWERS="$w/answers-$n.jsonl"
  case $debugger in
  gdb)
    (cd "side$n" && "${GDB:-gdb}" -nx -batch -x "$w/drive.py") >"side$n.log" 2>&1 ;;
  *)
    (cd "side$n" && "${LLDB:-lldb-16}" -b -x -o "command script import $w/drive.py") >"side$n.log" 2>&1 ;;
  esac
  [ -s "answers-$n.jsonl" ] || { tail -5 "side$n.log" >&2; echo "$debugger answered nothing" >&2; return 2; }
}

side 0 gdb gcc O0 || exit 2
side 1 lldb gcc O0 || exit 2
python3 drive.py compare answers-0.jsonl answers-1.jsonl
