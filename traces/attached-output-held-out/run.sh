#!/usr/bin/env bash
# The output check (--attached-output run-on) on programs it was not built on: random sessions on
# test262 (with its harness), generated programs and CPython standard-library modules run as programs.
# T: test262/test/language/statements of a test262 checkout; PY: a folder of the modules (README).
set -u
R=${R:-morphtrace-record}
O=${O:-traces/attached-output-held-out}
T=${T:?test262/test/language/statements}
PY=${PY:?a folder of h_MODULE.py copies}
A="--strategy random --attached-output run-on --seeds 1..2 --jobs 1"
for e in node firefox bun; do
  $R run $A --engine $e --corpus test262:$T/while --corpus test262:$T/for-in --corpus test262:$T/do-while \
    --corpus test262:$T/labeled --out $O/t262-$e.mtrace
  $R run $A --engine $e --corpus gen:2061..2100 --out $O/gen-$e.mtrace
done
$R run --strategy random --attached-output run-on --seeds 1 --jobs 1 --engine pdb --corpus $PY --out $O/py-pdb.mtrace
# debugpy: the first 12 of the modules (by name), two workers: each session runs on to the end under it.
$R run --strategy random --attached-output run-on --seeds 1 --jobs 2 --engine debugpy --corpus ${PY12:-$PY} --out $O/py-debugpy.mtrace
