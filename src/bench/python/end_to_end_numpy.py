"""Reference for EndToEndBenchmark: what a PCA or a low-rank query computes, in numpy.

Run by src/bench/java/io/privmat/bench/EndToEndBenchmark.java, one round per call:
    python3 end_to_end_numpy.py pca|rr <matrix.npy> <k> <sigma>
pca: load the float64 .npy, clip every row to L2 norm <= 1, Gram X.T @ X, add symmetric Gaussian
     noise (upper triangle drawn, mirrored), eigh, the top-k eigenvectors (Analyze Gauss's work).
rr:  load, clip, add Gaussian noise to every entry, the noisy Gram, eigh, the top-k right singular
     vectors and U = Y V / s (randomized response's work, by the same Gram route the service takes
     for a tall matrix).
The noise is numpy's floating-point normal(): cheaper than the service's exact discrete Gaussian
and not fit for a release; it only gives the reference its share of the work. Prints one line,
"seconds <t>", for everything from the load to the result (the interpreter's start excluded).
"""
import sys
import time

import numpy as np

mode, path, k, sigma = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
rng = np.random.default_rng()
t = time.perf_counter()
x = np.load(path)
norms = np.linalg.norm(x, axis=1)
x /= np.maximum(norms, 1.0)[:, None]
if mode == "pca":
    g = x.T @ x
    noise = np.triu(rng.normal(0.0, sigma, g.shape))
    g += noise + np.triu(noise, 1).T
    w, v = np.linalg.eigh(g)
    components = v[:, ::-1][:, :k]
elif mode == "rr":
    x += rng.normal(0.0, sigma, x.shape)
    w, v = np.linalg.eigh(x.T @ x)
    top = v[:, ::-1][:, :k]
    s = np.sqrt(np.maximum(w[::-1][:k], 1e-300))
    u = (x @ top) / s
else:
    raise SystemExit("mode must be pca or rr")
print("seconds %.6f" % (time.perf_counter() - t))
