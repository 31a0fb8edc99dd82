package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.WindowParameters;

/**
 * Symmetric d×d matrices stored as their upper triangle, row by row (d(d+1)/2 doubles): entry
 * (i, j), i ≤ j, at i·d − i(i−1)/2 + (j − i).
 */
final class Packed {

    private Packed() {}

    static int size(int d) {
        return WindowParameters.packedSize(d);
    }

    /** The upper triangle of a row-major symmetric d×d matrix. */
    static double[] pack(double[] full, int d) {
        double[] out = new double[size(d)];
        int k = 0;
        for (int i = 0; i < d; i++) {
            System.arraycopy(full, i * d + i, out, k, d - i);
            k += d - i;
        }
        return out;
    }

    /** The full row-major symmetric matrix. */
    static double[] unpack(double[] packed, int d) {
        double[] out = new double[d * d];
        int k = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                double v = packed[k++];
                out[i * d + j] = v;
                out[j * d + i] = v;
            }
        }
        return out;
    }

    /** dst += a·src. */
    static void addScaled(double[] dst, double[] src, double a) {
        for (int i = 0; i < dst.length; i++) {
            dst[i] += a * src[i];
        }
    }

    /** dst += src. */
    static void add(double[] dst, double[] src) {
        for (int i = 0; i < dst.length; i++) {
            dst[i] += src[i];
        }
    }

    /** packed += x xᵀ for the row x = values[offset .. offset + d). */
    static void addOuter(double[] packed, double[] values, int offset, int d) {
        int k = 0;
        for (int i = 0; i < d; i++) {
            double xi = values[offset + i];
            if (xi == 0) {
                k += d - i;
                continue;
            }
            for (int j = i; j < d; j++) {
                packed[k++] += xi * values[offset + j];
            }
        }
    }

    /** Adds the upper triangle of a row-major d×d matrix (e.g. a Gram from BLAS) into packed. */
    static void addUpper(double[] packed, double[] full, int d) {
        int k = 0;
        for (int i = 0; i < d; i++) {
            int base = i * d;
            for (int j = i; j < d; j++) {
                packed[k++] += full[base + j];
            }
        }
    }

    /** Index of (i, j) for i ≤ j. */
    static int index(int i, int j, int d) {
        return (int) ((long) i * d - (long) i * (i - 1) / 2 + (j - i));
    }
}
