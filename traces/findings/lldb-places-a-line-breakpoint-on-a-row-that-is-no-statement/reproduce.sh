#!/bin/sh
# A standalone reproducer: LLDB's own command line on program.c, compiled by gcc at -O2 -g.
# Line 7 (`note(7, "n", n); return n;`) runs only when n < 2, and there the program prints
# "line 7: n N". A breakpoint on line 7 whose callback prints n and does not stop counts the
# pauses LLDB takes there. gcc puts a copy of line 7's first instruction (n into a register)
# above the comparison `n < 2`, in a line-table row for line 7 that is not a statement
# (`is_stmt` false: not a recommended breakpoint location); line 7's statement rows are after
# the branch. LLDB 16 resolves the breakpoint to that row, so it pauses "at line 7" in every
# call, with n = 3 and n = 2, where line 7 does not run.
#
# The near miss: gdb, given the same breakpoint, takes a statement row and stops only where line
# 7 runs (n = 1, 0, 1).
#
#   sh reproduce.sh      (lldb-16, gdb and gcc from PATH, or LLDB=… GDB=… CC=…)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
lldb=${LLDB:-lldb-16}
gdb=${GDB:-gdb}
cc=${CC:-gcc}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
"$lldb" --version || exit 2
"$gdb" --version | head -1 || exit 2
"$cc" -O2 -g -o program program.c || exit 2
# Line 7's rows in the line table (objdump, binutils), for the record: an empty flag column is
# a row that is no statement.
objdump --dwarf=decodedline program 2>/dev/null | awk '$1 == "program.c" && $2 == 7'
cat > pauses.py <<'PY'
def paused(frame, location, internal_dict):
    print("lldb paused at line 7: n =", frame.FindVariable("n").GetValue())
    return False
PY
"$lldb" -b -x -o "command script import pauses.py" -o "breakpoint set -f program.c -l 7" \
  -o "breakpoint command add -F pauses.paused 1" -o run ./program > lldb.out 2>&1 || {
  cat lldb.out
  exit 2
}
grep 'Breakpoint 1: where' lldb.out
cat > stops.gdb <<'GDB'
break program.c:7
commands
  silent
  printf "gdb paused at line 7: n = %d\n", n
  continue
end
run
GDB
"$gdb" -batch -x stops.gdb ./program > gdb.out 2>&1 || {
  cat gdb.out
  exit 2
}
ran=$(grep -c '^line 7: n ' lldb.out)
lldb_n=$(grep '^lldb paused at line 7' lldb.out | sed 's/.*= //' | tr '\n' ' ')
gdb_n=$(grep '^gdb paused at line 7' gdb.out | sed 's/.*= //' | tr '\n' ' ')
echo "the program ran line 7 $ran times; LLDB paused there with n = $lldb_n; gdb with n = $gdb_n"
if [ "$ran" -eq 0 ] || [ -z "$gdb_n" ] || [ -z "$lldb_n" ]; then
  cat lldb.out gdb.out
  echo "no pause or no run of line 7: not the finding's setting"
  exit 2
fi
# The near miss: gdb's pauses are line 7's runs.
if [ "$(echo $gdb_n | wc -w)" -ne "$ran" ]; then
  echo "gdb too pauses other than where line 7 runs: not the finding's mechanism"
  exit 2
fi
if [ "$(echo $lldb_n | wc -w)" -eq "$ran" ]; then
  echo "the finding does not show: LLDB pauses at line 7 only where it runs"
  exit 0
fi
echo "the finding shows: LLDB pauses at line 7 where it does not run (n >= 2 cannot reach it)"
exit 1
