#!/usr/bin/env python3
"""Runs every test binary of the workspace as `cargo test --workspace` would, but two binaries at
a time (lanes) instead of one after another. Called by scripts/test.sh.

Why: one binary alone leaves part of the machine idle (the engine tests take one engine at a time:
tests/debuggers/ used 1.2 of 2 cores, tests/hostile.rs 1.3, measured with /usr/bin/time); two
lanes keep both cores busy. Binaries start slowest first (the longest-processing-time order), so
that the two lanes end close together.

Usage: test-lanes.py [--also=NAME=COMMAND]... [CARGO ARGS] [-- TEST BINARY ARGS]
  --also runs COMMAND (split as a shell would, from the repository's root) in a lane like a test binary
  (test.sh runs the notebooks so). CARGO ARGS go to `cargo test --no-run` (e.g. --locked); --no-fail-fast keeps scheduling binaries
  after one fails (by default, as cargo does, no binary starts after a failure). TEST BINARY ARGS
  go to every binary (a name filter, --nocapture, --test-threads N).
  MORPHTRACE_TEST_LANES sets the number of lanes (default 2; 1 runs the binaries one at a time).
"""

import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time

# Slowest first, as measured (docs/benchmarks.md, "Where the test suite's time goes"); binaries
# not named here start after these, in cargo's order.
SLOWEST = [
    "debuggers",
    "campaigns",
    "hostile",
    "metamorphic",
    "python",
    "coverage",
    "notebooks",
    "coverage_py",
    "genmorph",
    "versions",
    "shards",
]


# libtest's line for a test with `--report-time`: `test NAME ... ok <12.345s>`.
REPORTED = re.compile(r"^test (.*) \.\.\. (ok|FAILED) <([0-9.]+)s>$")


def binaries(cargo_args, also):
    """(name, executable, package directory) of every test binary, built by cargo."""
    cmd = ["cargo", "test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"]
    cmd += [a for a in cargo_args if a != "--no-fail-fast"]
    built = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if built.returncode != 0:
        sys.exit(built.returncode)
    found = []
    for line in built.stdout.splitlines():
        try:
            m = json.loads(line)
        except ValueError:
            continue
        if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
            kind = m["target"]["kind"][0]
            name = m["target"]["name"] if kind == "test" else f"{m['target']['name']} ({kind})"
            found.append((name, [m["executable"]], os.path.dirname(m["manifest_path"]), True))
    found += also
    rank = {n: i for i, n in enumerate(SLOWEST)}
    found.sort(key=lambda b: rank.get(b[0], len(SLOWEST)))
    return found


def main():
    args = sys.argv[1:]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    also = []
    while args and args[0].startswith("--also="):
        name, command = args.pop(0)[len("--also=") :].split("=", 1)
        also.append((name, shlex.split(command), root, False))
    cut = args.index("--") if "--" in args else len(args)
    cargo_args, test_args = args[:cut], args[cut + 1 :]
    fail_fast = "--no-fail-fast" not in cargo_args
    lanes = max(1, int(os.environ.get("MORPHTRACE_TEST_LANES", "2")))
    todo = binaries(cargo_args, also)
    t0 = time.monotonic()
    lock = threading.Lock()
    results = []  # (name, seconds, exit code)

    slow = []  # (seconds, binary, test)

    def run_one(name, argv, cwd, is_test):
        env = dict(os.environ, CARGO_MANIFEST_DIR=cwd)
        extra = []
        if is_test:
            # Each test's time (libtest's `--report-time`, unstable, hence RUSTC_BOOTSTRAP for
            # the test binary's own arguments only; nothing is compiled with it): every run's
            # log then says where the time went.
            env["RUSTC_BOOTSTRAP"] = "1"
            extra = ["-Z", "unstable-options", "--report-time"]
        start = time.monotonic()
        p = subprocess.run(
            argv + extra + (test_args if is_test else []),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        took = time.monotonic() - start
        with lock:
            results.append((name, took, p.returncode))
            state = "ok" if p.returncode == 0 else f"FAILED (exit {p.returncode})"
            print(f"\n==== {name}: {state}, {took:.0f} s ({' '.join(argv)})", flush=True)
            out = p.stdout.decode("utf-8", "replace")
            sys.stdout.write(out)
            sys.stdout.flush()
            for line in out.splitlines():
                m = REPORTED.match(line)
                if m:
                    slow.append((float(m.group(3)), name, m.group(1)))

    def lane():
        while True:
            with lock:
                if not todo or (fail_fast and any(rc != 0 for _, _, rc in results)):
                    return
                name, argv, cwd, is_test = todo.pop(0)
            run_one(name, argv, cwd, is_test)

    threads = [threading.Thread(target=lane) for _ in range(lanes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Doc tests (none today): cargo builds and runs them itself.
    doc = ["cargo", "test", "--workspace", "--doc"] + [a for a in cargo_args if a != "--no-fail-fast"]
    doc = subprocess.run(doc + (["--"] + test_args if test_args else []))
    results.append(("doc tests", 0.0, doc.returncode))
    print(f"\n==== {len(results)} test runs in {time.monotonic() - t0:.0f} s on {lanes} lanes:")
    for name, took, rc in sorted(results, key=lambda r: -r[1]):
        print(f"  {took:6.0f} s  {name}{'' if rc == 0 else '  FAILED'}")
    print("slowest tests (each beside the other lane's load):")
    for took, binary, test in sorted(slow, reverse=True)[:25]:
        print(f"  {took:6.0f} s  {binary}::{test}")
    failed = [n for n, _, rc in results if rc != 0]
    skipped = [b[0] for b in todo]
    if skipped:
        print(f"not run after a failure (--no-fail-fast runs them): {', '.join(skipped)}")
    if failed:
        print(f"error: {len(failed)} test run(s) failed: {', '.join(failed)}", file=sys.stderr)
        sys.exit(101)


if __name__ == "__main__":
    main()
