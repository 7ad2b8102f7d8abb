#!/bin/sh
# morphtrace's guard against undefined behaviour in C-Vise's candidates (C-Reduce's practice for
# compiler bug reports): a candidate that reads an uninitialized variable, calls an undeclared
# function, falls off a non-void function, overflows a buffer or an integer, ... may still show
# an inconsistency, but then the profilers measure a program whose meaning is undefined, and no
# vendor accepts that as a bug. Exit 0: no sign of undefined behaviour; 1: a sign of it.
#
#   sh well-defined.sh program.c
set -u
f=$1
inc="-I/usr/include/csmith"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# Warnings that mean undefined behaviour (gcc 12; -O1 enables the flow analysis that finds
# uninitialized reads); judged by the flag gcc names, as Csmith's programs warn of other things
# (implementation-defined conversions) by design.
gcc -std=gnu11 -O1 -Wuninitialized -Wmaybe-uninitialized -Wimplicit-int \
  -Wimplicit-function-declaration -Wreturn-type -Wincompatible-pointer-types -Wint-conversion \
  -Wdiv-by-zero -Warray-bounds -Wmain -Wshift-count-overflow -Wshift-count-negative \
  -Wsequence-point -Wreturn-local-addr -Wbuiltin-declaration-mismatch \
  $inc -c "$f" -o "$w/o.o" 2>"$w/warnings" || exit 1
grep -q -E '\[-W(uninitialized|maybe-uninitialized|implicit-int|implicit-function-declaration|return-type|incompatible-pointer-types|int-conversion|div-by-zero|array-bounds|main|shift-count-overflow|shift-count-negative|sequence-point|return-local-addr|builtin-declaration-mismatch)\]' \
  "$w/warnings" && exit 1
# What the compiler cannot see: run it under AddressSanitizer and UndefinedBehaviorSanitizer.
clang -O0 -w $inc -fsanitize=address,undefined -fno-sanitize-recover=undefined "$f" -o "$w/ub" \
  2>/dev/null || exit 1
# In the caller's process group (--foreground: plain `timeout` makes a group of its own, which
# C-Vise's and morphtrace's group kills then miss, and a looping candidate ran on for 40 minutes
# once `timeout` itself was killed), and under a CPU-time limit that the kernel enforces even on
# an orphan.
(ulimit -t 12 && ASAN_OPTIONS=detect_leaks=0 exec timeout --foreground -k 1 10 "$w/ub") \
  >/dev/null 2>"$w/report"
grep -q -e 'runtime error:' -e 'ERROR: AddressSanitizer' "$w/report" && exit 1
exit 0
