package io.privmat.mechanism.linear;

/**
 * Summed-area tables and difference arrays over a row-major tensor of any shape: a box sum in
 * O(2^k) after an O(k·size) integration, and a box added to a difference array in O(2^k). Used for
 * W·x on box workloads, column counts, and quadratic forms of covariances over boxes (on the
 * 2k-dimensional "pair" tensor K[c][c′]).
 */
final class BoxSums {

    private BoxSums() {}

    static int[] strides(int[] shape) {
        int[] strides = new int[shape.length];
        int s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= shape[i];
        }
        return strides;
    }

    /** In place: x[c] ← Σ_{c′ ≤ c componentwise} x[c′] (the summed-area table). */
    static void integrate(double[] x, int[] shape) {
        int[] strides = strides(shape);
        for (int axis = 0; axis < shape.length; axis++) {
            int t = strides[axis];
            int span = t * shape[axis];
            for (int base = 0; base < x.length; base += span) {
                for (int j = base + t; j < base + span; j++) {
                    x[j] += x[j - t];
                }
            }
        }
    }

    /** The sum over the box [lo, hi] (inclusive) from a summed-area table. */
    static double boxSum(double[] sat, int[] shape, int[] strides, int[] lo, int[] hi) {
        int k = shape.length;
        double total = 0;
        corners:
        for (int mask = 0; mask < (1 << k); mask++) {
            int index = 0;
            boolean negative = false;
            for (int i = 0; i < k; i++) {
                int c;
                if ((mask & (1 << i)) != 0) {
                    c = lo[i] - 1;
                    if (c < 0) {
                        continue corners;
                    }
                    negative = !negative;
                } else {
                    c = hi[i];
                }
                index += c * strides[i];
            }
            total += negative ? -sat[index] : sat[index];
        }
        return total;
    }

    /** Adds w on the box [lo, hi] of a difference array (apply {@link #integrate} once at the end). */
    static void addBox(double[] diff, int[] shape, int[] strides, int[] lo, int[] hi, double w) {
        int k = shape.length;
        corners:
        for (int mask = 0; mask < (1 << k); mask++) {
            int index = 0;
            boolean negative = false;
            for (int i = 0; i < k; i++) {
                int c;
                if ((mask & (1 << i)) != 0) {
                    c = hi[i] + 1;
                    if (c >= shape[i]) {
                        continue corners;
                    }
                    negative = !negative;
                } else {
                    c = lo[i];
                }
                index += c * strides[i];
            }
            diff[index] += negative ? -w : w;
        }
    }

    /** shape ++ shape: the pair tensor K[c][c′] of an n × n matrix over a domain. */
    static int[] pairShape(int[] shape) {
        int[] out = new int[2 * shape.length];
        System.arraycopy(shape, 0, out, 0, shape.length);
        System.arraycopy(shape, 0, out, shape.length, shape.length);
        return out;
    }
}
