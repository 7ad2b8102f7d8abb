#!/bin/sh
# The standalone reproducer: cdp.mjs on the node given (default: `node` on PATH), speaking CDP
# itself. Exit 1: the finding shows; 0: it does not; 2: it could not run.
#   sh reproduce.sh [PATH-TO-NODE]
here=$(dirname "$0")
exec node "$here/cdp.mjs" "$@"
