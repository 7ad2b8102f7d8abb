#!/bin/sh
# A standalone reproducer: gdb's own command line on program.c, compiled by gcc at -O2 -g.
# gcc folds `main` into constants: lines 13 to 16 all begin at `main`'s first address, told apart
# by location views (line 16 is view 3 there), and `b`'s location list says, by view, that `b` is
# {0, 3} from view 2 and {-1, 4} from view 3 on (DW_AT_GNU_locviews, `objdump --dwarf=loc`). A
# breakpoint on line 16 (`printf`, after `grow(&b)`) stops at that address; gdb 13.1 shows `b`
# as {lo = 0, hi = 3}, the value before `grow`, though the program prints "-1 4" from there.
#
# The near misses: the same program at -O0 (no views: gdb shows {lo = -1, hi = 4}); and the
# mechanism, checked: the location list of the -O2 build has its view pairs.
#
#   sh reproduce.sh      (gdb, gcc and objdump from PATH, or GDB=, CC=, OBJDUMP=)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
gdb=${GDB:-gdb}
cc=${CC:-gcc}
objdump=${OBJDUMP:-objdump}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.c" "$w/" && cd "$w" || exit 2
"$gdb" --version | sed -n 1p || exit 2
"$cc" --version | sed -n 1p || exit 2
"$cc" -O2 -g -o o2 program.c || exit 2
"$cc" -O0 -g -o o0 program.c || exit 2
printed=$(./o2) || exit 2
[ "$printed" = "-1 4" ] || { echo "the program printed $printed"; exit 2; }
"$objdump" --dwarf=loc o2 | grep -q "location view pair" || {
  echo "no location views in the -O2 build: not the finding's mechanism"
  exit 2
}
shown() {
  "$gdb" -batch -nx -ex 'break 16' -ex run -ex 'print b' "./$1" 2>&1 | sed -n 's/^\$1 = //p'
}
near=$(shown o0)
[ "$near" = "{lo = -1, hi = 4}" ] || {
  echo "at -O0 gdb shows b = $near: not the finding's near miss"
  exit 2
}
said=$(shown o2)
echo "gdb at line 16, -O2: b = $said (the program prints $printed; at -O0 gdb shows $near)"
case $said in
"{lo = 0, hi = 3}")
  echo "the finding shows: gdb shows b as it was before grow(&b), from an earlier location view"
  exit 1
  ;;
"{lo = -1, hi = 4}")
  echo "the finding does not show: gdb shows the value the program prints"
  exit 0
  ;;
*)
  echo "gdb answered otherwise: see above"
  exit 2
  ;;
esac
