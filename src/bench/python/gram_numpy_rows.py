"""Reference for SparkGramBenchmark: numpy's X.T @ X (OpenBLAS dsyrk) over the benchmark's own rows.

The rows are the ones SparkGramBenchmark writes as Parquet: entry (i, j) of the base block is
(u - 0.5) * 0.1 with u = ((i*d + j) * 2654435761 mod 2^32) / 2^32, bit for bit the same doubles in
Java and here. A size n (a multiple of the base) is the base block repeated n / base times, as the
benchmark's Parquet sizes are: G += X.T @ X once per repetition. One untimed warm-up product.

Usage: gram_numpy_rows.py base n d repetitions
Prints "seconds <t>" and "cpu <t>" (the process's CPU time, all threads) per repetition, then
"trace <tr(G)>" of the last one.
"""
import sys
import time

import numpy as np

base, n, d, reps = (int(a) for a in sys.argv[1:5])
idx = np.arange(base * d, dtype=np.uint64)
u = ((idx * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)).astype(np.float64) / 2.0**32
del idx
x = ((u - 0.5) * 0.1).reshape(base, d)
del u
x.T @ x  # warm-up: thread pool start and page faults
g = None
for _ in range(reps):
    t = time.perf_counter()
    c = time.process_time()
    g = np.zeros((d, d))
    for _ in range(n // base):
        g += x.T @ x
    print("seconds %.6f" % (time.perf_counter() - t), flush=True)
    print("cpu %.6f" % (time.process_time() - c), flush=True)
print("trace %.17g" % np.trace(g))
