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
