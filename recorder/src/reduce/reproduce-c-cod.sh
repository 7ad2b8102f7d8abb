#!/bin/sh
# A standalone reproducer written by morphtrace: @PROFILER@ on program.c (P) and on variant.c (P',
# P without code @PROFILER@ reported unexecuted: Cod's relation says every line the two share
# runs as often in both). Line @LINE@ of P is line @LINE_B@ of P'.
#
#   sh reproduce.sh      (tools from PATH, or GCC=, GCOV=, CLANG=, LLVM_PROFDATA=, LLVM_COV=)
#
# Exit 1: the finding shows (the counts differ as recorded); 0: they agree; 2: a tool failed or
# the two programs behave differently.
set -u
line=@LINE@
line_b=@LINE_B@
kind=@KIND@
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$here/variant.c" "$w/" && cd "$w" || exit 2
@HARNESS@
count=@COUNT@
a=$($count program.c "$line") || exit 2
b=$($count variant.c "$line_b") || exit 2
echo "@PROFILER@: line $line of P $(show "$a"), line $line_b of P' $(show "$b")"
same_runs program.c.@RUN@.out variant.c.@RUN@.out \
  "P and P' behave differently: the variant is not comparable"
if differ "$a" "$b" "$kind"; then
  echo "the finding shows: P and P' count the line differently"
  exit 1
fi
echo "the finding does not show: P and P' agree"
exit 0
