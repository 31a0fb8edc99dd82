#!/usr/bin/env python3
"""PCA on Fashion-MNIST: the variance the private top-10 subspace captures, against epsilon.

Reads /usr/share/datasets/fashion-mnist (Debian package dataset-fashion-mnist); without it a seeded
synthetic stand-in of the same shape is used, and the output says so. Each image is scaled to unit
L2 norm (a per-row step that needs no privacy budget), so rowNormBound = 1 clips nothing. For each
epsilon a dataset with that budget runs Analyze Gauss PCA at (epsilon, 1e-6); the captured variance
is trace(V^T X^T X V) / (sum of the top-k eigenvalues of X^T X) - computed here, by the owner who has
the data. Writes pca_fashion_mnist.png when matplotlib (python3-matplotlib) is installed.
"""
import gzip
import os
import sys
from pathlib import Path

import numpy as np

from _setup import QUICK, clients

IMAGES = Path("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz")
ROWS = int(os.environ.get("PRIVMAT_EXAMPLE_ROWS", 2000 if QUICK else 20000))
K = 10
EPSILONS = [0.1, 0.3, 1.0, 3.0] if QUICK else [0.05, 0.1, 0.3, 1.0, 3.0, 10.0]


def load(rows):
    if IMAGES.exists():
        with gzip.open(IMAGES, "rb") as f:
            header = np.frombuffer(f.read(16), dtype=">u4")
            count, h, w = int(header[1]), int(header[2]), int(header[3])
            rows = min(rows, count)
            x = np.frombuffer(f.read(rows * h * w), dtype=np.uint8).reshape(rows, h * w)
        return x.astype(np.float64), "Fashion-MNIST (train, first %d images)" % rows
    print("NOTE: Fashion-MNIST not found (apt-get install dataset-fashion-mnist); "
          "using a seeded synthetic stand-in of the same shape", file=sys.stderr)
    rng = np.random.default_rng(1)
    basis = rng.normal(size=(20, 784)) * np.linspace(3, 0.3, 20)[:, None]
    x = np.abs(rng.normal(size=(rows, 20)) @ basis + rng.normal(scale=0.5, size=(rows, 784))) * 40
    return x, "synthetic stand-in (%d rows, 784 columns, seed 1)" % rows


x, source = load(ROWS)
x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
gram = x.T @ x
best = np.sort(np.linalg.eigvalsh(gram))[::-1][:K].sum()
print(f"data: {source}; k = {K}; best possible captured variance {best:.2f}")

admin, owner, analyst, analyst_name = clients("pca")
captured = []
print(f"{'epsilon':>8s} {'captured':>9s}")
for eps in EPSILONS:
    ds = owner.create_dataset(f"fmnist-eps-{eps}", "MATRIX", rowNormBound=1.0,
                              budget={"epsilon": eps, "delta": 1e-6, "accounting": "BASIC"})
    owner.upload(ds, x.astype(np.float32))
    owner.grant(ds, analyst_name)
    job = analyst.submit(ds.id, "PCA", "ANALYZE_GAUSS", epsilon=eps, delta=1e-6, k=K)
    v = np.asarray(job.wait(timeout=120, progress=False).result().components)
    share = float(np.trace(v.T @ gram @ v) / best)
    captured.append(share)
    print(f"{eps:8g} {share:9.3f}")
    owner.delete_dataset(ds.id)

assert captured[-1] > captured[0], "more budget captures more variance"
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed (python3-matplotlib): numbers only, no plot")
else:
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.semilogx(EPSILONS, captured, marker="o")
    ax.set_xlabel("epsilon (delta = 1e-6)")
    ax.set_ylabel(f"captured variance, top {K}")
    ax.set_ylim(0, 1.05)
    ax.set_title(f"Analyze Gauss PCA on {ROWS} images")
    out = Path(os.environ.get("PRIVMAT_EXAMPLE_OUT", ".")) / "pca_fashion_mnist.png"
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print("plot:", out)
print("pca on fashion-mnist: OK")
