#!/bin/sh
# A standalone reproducer written by morphtrace: gcov and llvm-cov on program.c, compared on one
# line (C2V's relation: two profilers, one program, the same execution count on every line).
#
#   sh reproduce.sh      (tools from PATH, or GCC=, GCOV=, CLANG=, LLVM_PROFDATA=, LLVM_COV=)
#
# Exit 1: the finding shows (the counts differ as recorded); 0: they agree; 2: a tool failed.
set -u
line=7
kind=strong
here=$(cd "$(dirname "$0")" && pwd)
GCC=${GCC:-gcc} GCOV=${GCOV:-gcov} CLANG=${CLANG:-clang}
LLVM_PROFDATA=${LLVM_PROFDATA:-llvm-profdata} LLVM_COV=${LLVM_COV:-llvm-cov}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
fail() { echo "reproduce.sh: $*" >&2; exit 2; }
# Csmith programs include csmith.h.
inc="-I/usr/include/csmith"

# gcov: compile and link apart so the notes are program.gcno; `-t` prints the annotated source.
$GCC -O0 -w $inc --coverage -c program.c -o program.o && $GCC --coverage program.o -o p-gcc ||
  fail "gcc failed"
./p-gcc >gcc.out; gcc_exit=$?
gcov_count=$($GCOV -t program.c 2>/dev/null | awk -F: -v l="$line" '
  $2 + 0 == l && $1 !~ /^ *-$/ { c = $1; gsub(/[ *]/, "", c); if (c ~ /^[#=]+$/) c = 0; print c; exit }')

# llvm-cov: the LCOV export gives exact per-line counts (`show` abbreviates large ones).
$CLANG -O0 -w $inc -fprofile-instr-generate -fcoverage-mapping program.c -o p-clang ||
  fail "clang failed"
LLVM_PROFILE_FILE=p.profraw ./p-clang >clang.out; clang_exit=$?
$LLVM_PROFDATA merge -sparse p.profraw -o p.profdata || fail "llvm-profdata failed"
llvm_count=$($LLVM_COV export -format=lcov ./p-clang -instr-profile=p.profdata |
  awk -F'[:,]' -v l="$line" '$1 == "DA" && $2 + 0 == l { print $3; exit }')

show() { if [ -z "$1" ]; then echo "no count"; else echo "$1"; fi; }
echo "line $line: gcov $(show "$gcov_count"), llvm-cov $(show "$llvm_count")"
if [ "$gcc_exit" != "$clang_exit" ] || ! cmp -s gcc.out clang.out; then
  fail "the two builds behave differently (exit $gcc_exit vs $clang_exit): the program is not comparable"
fi
case "$kind" in
  strong) [ -n "$gcov_count" ] && [ -n "$llvm_count" ] && [ "$gcov_count" != "$llvm_count" ] ;;
  *) { [ -z "$gcov_count" ] && [ -n "$llvm_count" ]; } || { [ -n "$gcov_count" ] && [ -z "$llvm_count" ]; } ;;
esac && { echo "the finding shows: the profilers differ"; exit 1; }
echo "the finding does not show: the profilers agree"
exit 0
