#!/bin/sh
# A standalone reproducer written by morphtrace: gcov and llvm-cov on program.c, compared on one
# line (C2V's relation: two profilers, one program, the same execution count on every line).
#
#   sh reproduce.sh      (tools from PATH, or GCC=, GCOV=, CLANG=, LLVM_PROFDATA=, LLVM_COV=)
#
# Exit 1: the finding shows (the counts differ as recorded); 0: they agree; 2: a tool failed.
set -u
line=@LINE@
kind=@KIND@
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
@HARNESS@
gcov_count=$(gcov_count program.c "$line") || exit 2
llvm_count=$(llvm_count program.c "$line") || exit 2
echo "line $line: gcov $(show "$gcov_count"), llvm-cov $(show "$llvm_count")"
same_runs program.c.gcc.out program.c.clang.out \
  "the two builds behave differently: the program is not comparable"
if differ "$gcov_count" "$llvm_count" "$kind"; then
  echo "the finding shows: the profilers differ"
  exit 1
fi
echo "the finding does not show: the profilers agree"
exit 0
