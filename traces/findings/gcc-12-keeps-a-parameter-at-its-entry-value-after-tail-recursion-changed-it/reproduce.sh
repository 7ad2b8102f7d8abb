#!/bin/sh
# A standalone reproducer: gdb's own command line on program.c, compiled by gcc at -O2 -g.
# A breakpoint on line 7 (`note(7, n); return n;`, reached when n < 2) prints what the
# debugger says n is at each stop, and the program prints, right after, what n is there (the
# call `note(7, n)` is the line's first code: nothing changes n between the stop and the call).
# gcc 12 turns the second recursive call, `fib(n - 2)`, into a jump back to the function's start
# with n - 2 in a register, and leaves n's location as `DW_OP_entry_value(rdi)`, its value on
# entry, over that whole range: after the jump the debugger shows the n the frame was called
# with, not the one the code computes with. gdb and LLDB both read it so.
#
# The near misses: gcc -O1 and -O0 (no such loop) show n as the program reads it; clang -O2
# shows n as optimized out there (no value, not a wrong one).
#
#   sh reproduce.sh      (gdb and gcc from PATH, or GDB=/path/to/gdb CC=/path/to/cc)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
gdb=${GDB:-gdb}
cc=${CC:-gcc}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
"$gdb" --version | head -1 || exit 2
"$cc" --version | head -1 || exit 2
cat > stops.gdb <<'GDB'
break program.c:7
commands
  silent
  printf "debugger: n = %d\n", n
  continue
end
run > program.out
GDB

# shown LEVEL: the debugger's n at each stop on line 7, then the program's, one per line each.
shown() {
  "$cc" "-$1" -g -o "program-$1" program.c || exit 2
  "$gdb" -batch -x stops.gdb "./program-$1" > gdb.out 2>&1 || {
    cat gdb.out
    exit 2
  }
  grep '^debugger: n = ' gdb.out | sed 's/.*= //' > debugger.txt
  grep '^line 7: n=' program.out | sed 's/.*=//' > program.txt
  if [ ! -s program.txt ] || [ "$(wc -l < debugger.txt)" != "$(wc -l < program.txt)" ]; then
    cat gdb.out program.out
    echo "-$1: the stops and the program's lines do not pair up: not the finding's setting"
    exit 2
  fi
  echo "-$1: debugger $(tr '\n' ' ' < debugger.txt)| program $(tr '\n' ' ' < program.txt)"
}

# The near miss: at -O1 the debugger shows what the program reads.
shown O1
if ! cmp -s debugger.txt program.txt; then
  echo "at -O1 the debugger already disagrees with the program: not the finding's mechanism"
  exit 2
fi
shown O2
if cmp -s debugger.txt program.txt; then
  echo "the finding does not show: at every stop on line 7 the debugger's n is the program's"
  exit 0
fi
echo "the finding shows: at a stop on line 7 (gcc -O2) the debugger's n is not the n the program reads there"
exit 1
