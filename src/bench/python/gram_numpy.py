"""Reference for GramKernelBenchmark: numpy's X.T @ X on a 60000 x 784 float64 matrix.

Run by src/bench/java/io/privmat/bench/GramKernelBenchmark.java, one round per call. Prints one
line: "seconds <t>" for the timed product (the matrix is built before the timer starts).
"""
import sys
import time

import numpy as np

n, d = (int(a) for a in sys.argv[1:3]) if len(sys.argv) >= 3 else (60000, 784)
x = np.random.default_rng(1).random((n, d))
x.T @ x  # warm-up: thread pool start and page faults
t = time.perf_counter()
g = x.T @ x
print("seconds %.6f" % (time.perf_counter() - t))
