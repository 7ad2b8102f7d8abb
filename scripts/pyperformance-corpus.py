"""Rebuilds this folder's programs from pyperformance's wheel (PyPI), as they were made:

    python3 -m pip download --no-deps pyperformance==1.14.0 -d W && python3 -m zipfile -e W/*.whl X
    python3 scripts/pyperformance-corpus.py X/benchmarks corpus/python/pyperformance
"""
import os
import re
import sys

SRC, OUT = sys.argv[1], sys.argv[2]
# name -> (substitutions, main block)
SPEC = {
    "nqueens": ([], "print(len(list(n_queens(5))))"),
    "fannkuch": ([], "print(fannkuch(6))"),
    "float": ([], "print(benchmark(60))"),
    "richards": ([], "print(Richards().run(1))"),
    "deltablue": ([], "delta_blue(12)\nprint('done')"),
    "nbody": ([], "bench_nbody(1, DEFAULT_REFERENCE, 30)\nprint(BODIES[DEFAULT_REFERENCE][1])"),
    "spectral_norm": ([("DEFAULT_N = 130", "DEFAULT_N = 8")], "bench_spectral_norm(1)\nprint('done')"),
    "generators": ([("range(100000)", "range(64)")], "bench_generators(1)\nprint(list(tree(range(6))))"),
    "coroutines": ([("fibonacci(25)", "fibonacci(9)")], "bench_coroutines(1)\nprint('done')"),
    "hexiom": ([], "main(1, 2)\nprint('done')"),
    "raytrace": ([], "bench_raytrace(1, 6, 6, None)\nprint('done')"),
}
for name, (subs, main) in SPEC.items():
    text = open(f"{SRC}/bm_{name}/run_benchmark.py").read()
    cut = re.search(r'^if __name__ == .__main__.:', text, re.M)
    body = text[:cut.start()] if cut else text
    body = body.replace("import pyperf\n", "import time\n", 1)
    body = body.replace("pyperf.perf_counter()", "time.perf_counter()")
    for a, b in subs:
        assert a in body, (name, a)
        body = body.replace(a, b)
    assert re.search(r"^import pyperf|pyperf\.(perf_counter|Runner)", body, re.M) is None, name
    head = (f"# From pyperformance 1.14.0 (MIT, see LICENSE): benchmarks/bm_{name}/run_benchmark.py.\n"
            "# Changed for morphtrace: the pyperf runner replaced by one run with small parameters and a\n"
            "# printed result, so that the program runs standalone, deterministically and briefly.\n")
    open(os.path.join(OUT, f"{name}.py"), "w").write(head + body.rstrip() + "\n\n\nif __name__ == \"__main__\":\n" + "".join("    " + l + "\n" for l in main.split("\n")))
