# From pyperformance 1.14.0 (MIT, see LICENSE): benchmarks/bm_coroutines/run_benchmark.py.
# Changed for morphtrace: the pyperf runner replaced by one run with small parameters and a
# printed result, so that the program runs standalone, deterministically and briefly.
"""
Benchmark for recursive coroutines.

Author: Kumar Aditya
"""

import time


async def fibonacci(n: int) -> int:
    if n <= 1:
        return n
    return await fibonacci(n - 1) + await fibonacci(n - 2)


def bench_coroutines(loops: int) -> float:
    range_it = range(loops)
    t0 = time.perf_counter()
    for _ in range_it:
        coro = fibonacci(9)
        try:
            while True:
                coro.send(None)
        except StopIteration:
            pass
    return time.perf_counter() - t0


if __name__ == "__main__":
    bench_coroutines(1)
    print('done')
