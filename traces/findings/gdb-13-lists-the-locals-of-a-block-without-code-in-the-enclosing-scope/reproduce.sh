#!/bin/sh
# A standalone reproducer: gdb's own command line on program.c, compiled by gcc at -O0 -g.
# gcc folds `if (1)`: the `else` block has no code, and its DW_TAG_lexical_block no address
# range (no DW_AT_low_pc, DW_AT_high_pc or DW_AT_ranges), with `tbl` in it. gdb 13.1 reads the
# children of such a block as if the block were not there (read_lexical_block_scope in
# gdb/dwarf2/read.c: "DW_TAG_lexical_block has no attributes, process its children as if there
# was no wrapping by that DW_TAG_lexical_block. GCC does no longer produces such DWARF"), so at a
# pause on line 5, in the `if` branch, `info locals` lists `tbl`, a name not in scope there.
#
# The near miss: the same program with `if (x)`, whose `else` block has code and an address
# range: gdb lists `x` alone. The mechanism, checked: the block has no pc attribute.
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
"$cc" -O0 -g -o folded program.c || exit 2
sed 's/if (1)/if (x)/' program.c > near.c
"$cc" -O0 -g -o near near.c || exit 2
# The lexical block's attributes: none for an address range.
block=$("$objdump" --dwarf=info folded | sed -n '/DW_TAG_lexical_block/,/DW_TAG_variable/p')
case $block in
*DW_TAG_lexical_block*) ;;
*) echo "no lexical block: not the finding's mechanism"; exit 2 ;;
esac
case $block in
*DW_AT_low_pc* | *DW_AT_ranges*) echo "the block has an address range: not the finding's mechanism"; exit 2 ;;
esac
locals() {
  "$gdb" -batch -nx -ex 'break 5' -ex run -ex 'info locals' "./$1" 2>&1 | sed -n '/^5\t/,$p' | sed 1d
}
near=$(locals near)
[ "$near" = "x = 1" ] || { printf '%s\n' "$near"; echo "the near miss lists otherwise"; exit 2; }
said=$(locals folded)
printf 'gdb at line 5, info locals:\n%s\n' "$said"
case $said in
*"tbl = "*)
  echo "the finding shows: gdb lists tbl, declared in the else block without code, at line 5"
  exit 1
  ;;
"x = 1")
  echo "the finding does not show: gdb lists x alone"
  exit 0
  ;;
*)
  echo "gdb answered otherwise: see above"
  exit 2
  ;;
esac
