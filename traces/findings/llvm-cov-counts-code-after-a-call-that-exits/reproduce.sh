#!/bin/sh
# A standalone reproducer written by morphtrace: gcov and llvm-cov on program.c, compared on one
# line (C2V's relation: two profilers, one program, the same execution count on every line).
#
#   sh reproduce.sh      (tools from PATH, or GCC=, GCOV=, CLANG=, LLVM_PROFDATA=, LLVM_COV=)
#
# Exit 1: the finding shows (the counts differ as recorded); 0: they agree; 2: a tool failed.
set -u
line=6
kind=strong
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
GCC=${GCC:-gcc} GCOV=${GCOV:-gcov} CLANG=${CLANG:-clang}
LLVM_PROFDATA=${LLVM_PROFDATA:-llvm-profdata} LLVM_COV=${LLVM_COV:-llvm-cov}
fail() { echo "reproduce.sh: $*" >&2; exit 2; }
# Csmith programs include csmith.h.
inc="-I/usr/include/csmith"

# gcov's count of line $2 of $1 (nothing if the line has none); the run's output goes to
# $1.gcc.out and its exit status to $1.gcc.exit. Compiled and linked apart so the notes are
# named after the file; `-t` prints the annotated source.
gcov_count() {
  b=${1%.c}
  $GCC -O0 -w $inc --coverage -c "$1" -o "$b.o" && $GCC --coverage "$b.o" -o "$b-gcc" ||
    fail "gcc failed on $1"
  ./"$b-gcc" >"$1.gcc.out"; echo $? >"$1.gcc.exit"
  $GCOV -t "$1" 2>/dev/null | awk -F: -v l="$2" '
    $2 + 0 == l && $1 !~ /^ *-$/ { c = $1; gsub(/[ *]/, "", c); if (c ~ /^[#=]+$/) c = 0; print c; exit }'
}

# llvm-cov's count of line $2 of $1, from the LCOV export (exact; `show` abbreviates large
# counts); output and exit status as above, in $1.clang.out and $1.clang.exit.
llvm_count() {
  b=${1%.c}
  $CLANG -O0 -w $inc -fprofile-instr-generate -fcoverage-mapping "$1" -o "$b-clang" ||
    fail "clang failed on $1"
  LLVM_PROFILE_FILE="$b.profraw" ./"$b-clang" >"$1.clang.out"; echo $? >"$1.clang.exit"
  $LLVM_PROFDATA merge -sparse "$b.profraw" -o "$b.profdata" || fail "llvm-profdata failed on $1"
  $LLVM_COV export -format=lcov ./"$b-clang" -instr-profile="$b.profdata" |
    awk -F'[:,]' -v l="$2" '$1 == "DA" && $2 + 0 == l { print $3; exit }'
}

show() { if [ -z "$1" ]; then echo "no count"; else echo "$1"; fi; }

# Whether counts $1 and $2 differ as a finding of kind $3 does: strong, both counted and
# different; weak, one counted and the other not.
differ() {
  case "$3" in
    strong) [ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ] ;;
    *) { [ -z "$1" ] && [ -n "$2" ]; } || { [ -n "$1" ] && [ -z "$2" ]; } ;;
  esac
}

# Fails with message $3 unless two runs (their outputs $1 and $2, each with its exit status in
# the .exit file beside) printed and exited alike.
same_runs() {
  [ "$(cat "${1%.out}.exit")" = "$(cat "${2%.out}.exit")" ] && cmp -s "$1" "$2" || fail "$3"
}

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
