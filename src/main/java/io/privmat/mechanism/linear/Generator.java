package io.privmat.mechanism.linear;

/**
 * One-attribute query generators; a product workload term applies one per attribute (Kronecker
 * product). Every query is an interval [lo, hi] of the attribute, listed in a fixed order.
 */
public enum Generator {
    /** Every value: [v, v] for v = 0..n−1 (n queries). */
    IDENTITY,
    /** The whole attribute: [0, n−1] (one query; the attribute is summed out). */
    TOTAL,
    /** Prefixes [0, v] for v = 0..n−1 (n queries). */
    PREFIX,
    /** All ranges [a, b], 0 ≤ a ≤ b &lt; n, ordered by a then b (n(n+1)/2 queries). */
    ALL_RANGE;

    long queries(int n) {
        return switch (this) {
            case IDENTITY, PREFIX -> n;
            case TOTAL -> 1;
            case ALL_RANGE -> (long) n * (n + 1) / 2;
        };
    }

    /** Sets the first interval into lohi[0], lohi[1]. */
    void first(int n, int[] lohi) {
        lohi[0] = 0;
        lohi[1] = switch (this) {
            case IDENTITY, PREFIX, ALL_RANGE -> 0;
            case TOTAL -> n - 1;
        };
    }

    /** Advances to the next interval; false (and the first interval) after the last one. */
    boolean next(int n, int[] lohi) {
        switch (this) {
            case IDENTITY -> {
                if (lohi[0] + 1 < n) {
                    lohi[0]++;
                    lohi[1]++;
                    return true;
                }
            }
            case PREFIX -> {
                if (lohi[1] + 1 < n) {
                    lohi[1]++;
                    return true;
                }
            }
            case ALL_RANGE -> {
                if (lohi[1] + 1 < n) {
                    lohi[1]++;
                    return true;
                }
                if (lohi[0] + 1 < n) {
                    lohi[0]++;
                    lohi[1] = lohi[0];
                    return true;
                }
            }
            case TOTAL -> {
                // one query only
            }
        }
        first(n, lohi);
        return false;
    }

    /** Column j's number of queries containing it (= its L1 and squared L2 norm: entries are 0/1). */
    double columnCount(int n, int j) {
        return switch (this) {
            case IDENTITY, TOTAL -> 1;
            case PREFIX -> n - j;
            case ALL_RANGE -> (double) (j + 1) * (n - j);
        };
    }

    /** Σ of the query volumes = ‖W‖_F² of the one-attribute matrix. */
    double frobeniusSquared(int n) {
        double m = n;
        return switch (this) {
            case IDENTITY, TOTAL -> m;
            case PREFIX -> m * (m + 1) / 2;
            case ALL_RANGE -> m * (m + 1) * (m + 2) / 6;
        };
    }

    /** The n × n Gram WᵀW of the one-attribute matrix, row-major: entry (i, j) counts queries containing both. */
    double[] gram(int n) {
        double[] g = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int lo = Math.min(i, j);
                int hi = Math.max(i, j);
                g[i * n + j] = switch (this) {
                    case IDENTITY -> i == j ? 1 : 0;
                    case TOTAL -> 1;
                    case PREFIX -> n - hi;
                    case ALL_RANGE -> (double) (lo + 1) * (n - hi);
                };
            }
        }
        return g;
    }
}
