#!/bin/sh
# A standalone reproducer: Delve's own command line (`dlv exec`) on program.go, built by Go 1.19 as
# `dlv debug` builds (`-gcflags=all=-N -l`). `work` defers `note("done")`, a call with an argument,
# which the compiler wraps in a closure (`main.work.func1`). A breakpoint on line 11, `continue`,
# `step` to line 12 (`}`, where the deferred calls run), `step` again: Delve's step is meant to
# enter the deferred call run there (Delve's `next` skips deferred calls "unless they are called
# via a panic ... if the user wants to step into them 'step' can be used", go-delve/delve pull
# request 972; the step sets "a breakpoint on the topmost deferred function with a special
# condition that checks where the call site is", issue 2661). Delve 1.20.2 ends the step in
# `main.main`, line 16: `note` ran unstepped.
#
# The near misses, each of which stops in the deferred code: the same steps with a breakpoint on
# line 6 (in `note`: `note` does run, and pauses there); the same program built with optimizations
# (`go build`: the step enters the wrapper `main.work.func1`); `defer note()` without an argument
# (no wrapper: the step enters `main.note`).
#
#   sh reproduce.sh      (dlv and go from PATH, or DLV=/path/to/dlv GO=/path/to/go)
#
# Exit 1: the finding shows (as recorded); 0: it does not; 2: a tool failed.
set -u
dlv=${DLV:-dlv}
go=${GO:-go}
here=$(cd "$(dirname "$0")" && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp "$here/program.go" "$w/" && cd "$w" || exit 2
# Delve writes its configuration under XDG_CONFIG_HOME; Go builds outside any module.
export XDG_CONFIG_HOME="$w/config" GO111MODULE=off GOFLAGS= GOPROXY=off CGO_ENABLED=0
"$dlv" version | sed -n 2p || exit 2
"$go" version || exit 2
"$go" build -gcflags='all=-N -l' -o program program.go || exit 2
"$go" build -o optimized program.go || exit 2
sed 's/defer note("done")/defer note0()/; s/^func note(s string) {/func note0() { note("done") }\n\nfunc note(s string) {/' \
  program.go > plain.go
"$go" build -gcflags='all=-N -l' -o plain plain.go || exit 2

# session BINARY COMMAND...: Delve's commands, then where each stop is.
session() {
  binary=$1
  shift
  printf '%s\n' "$@" exit > commands
  "$dlv" exec "./$binary" --init commands --allow-non-terminal-interactive 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g' | grep '^> '
}

said=$(session program 'break program.go:11' continue step step) || true
printf '%s\n' "$said"
near=$(session program 'break program.go:11' 'break program.go:6' continue step step) || true
case $near in
*"main.note() ./program.go:6"*) ;;
*)
  printf '%s\n' "$near"
  echo "the near miss (a breakpoint in note) did not pause in note: not the finding's mechanism"
  exit 2
  ;;
esac
optimized=$(session optimized 'break program.go:11' continue step step) || true
case $optimized in
*"main.work.func1() "*) ;;
*)
  printf '%s\n' "$optimized"
  echo "the near miss (the optimized build) did not step into the deferred wrapper"
  exit 2
  ;;
esac
plain=$(session plain 'break plain.go:13' continue step step) || true
case $plain in
*"main.note0() "*) ;;
*)
  printf '%s\n' "$plain"
  echo "the near miss (a deferred call without an argument) did not step into it"
  exit 2
  ;;
esac
case $said in
*"main.main() ./program.go:16"*)
  echo "the finding shows: \`step\` from work's closing brace ended in main, past the deferred call"
  exit 1
  ;;
*"main.note() "* | *"main.work.func1() "*)
  echo "the finding does not show: \`step\` entered the deferred call"
  exit 0
  ;;
*)
  echo "dlv answered otherwise: see above"
  exit 2
  ;;
esac
