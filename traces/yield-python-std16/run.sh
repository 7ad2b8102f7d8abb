#!/usr/bin/env bash
# Oracles side by side on debugpy (issue 68, Deliver 5): 16 CPython standard-library modules run
# as programs (those of recorder/benches/python.rs, copied from the interpreter's own library;
# the archives hold every program's text), seed 1, jobs 2: ground truth, the debugger against
# itself, pydevd's two tracers against each other, the metamorphic relations, beside debugpy
# against pdb (the other debugger of the language). An archive already there is kept.
set -u
R=${R:-morphtrace-record}
O=${O:-traces/yield-python-std16}
P=${P:-${TMPDIR:-/tmp}/morphtrace-std16}
PY=${PY:-$HOME/.pyenv/versions/3.11.7/bin/python3}
lib=$("$PY" -c "import sysconfig; print(sysconfig.get_paths()['stdlib'])")
mkdir -p "$P"
for m in bisect colorsys copy fnmatch genericpath glob graphlib keyword numbers opcode queue \
         reprlib sched stat string textwrap; do
  cp "$lib/$m.py" "$P/std_$m.py"
done
C="--corpus $P --seeds 1 --jobs 2"
run() {
  local name=$1; shift
  [ -e "$O/$name.mtrace" ] && return
  local t0=$(date +%s)
  $R run "$@" $C --out "$O/$name.mtrace" > "$O/$name.log" 2>&1
  echo "$name rc=$? $(( $(date +%s) - t0 )) s" >> "$O/times"
}
run truth-debugpy --strategy truth --engine debugpy
run steps-debugpy --strategy steps --engine debugpy
run tiers-debugpy-python --strategy differential --engine debugpy --engine debugpy+python
run metamorphic-debugpy --strategy metamorphic --engine debugpy --transformations table1,modern --rounds 3
run differential-debugpy-pdb --strategy differential --engine debugpy --engine pdb
