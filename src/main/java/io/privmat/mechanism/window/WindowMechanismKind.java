package io.privmat.mechanism.window;

/** The continual-release mechanisms for windowed block sums (docs/mechanisms/windows.md). */
public enum WindowMechanismKind {
    /** Each completed block released once with fresh Gaussian noise; a window sums w releases. */
    BLOCKS,
    /** Dyadic nodes of 1, 2, 4, … blocks, each released once; a window sums its dyadic cover. */
    DYADIC_TREE,
    /** Banded lower-triangular Toeplitz factorisation of the window workload (correlated noise). */
    FACTORIZATION
}
