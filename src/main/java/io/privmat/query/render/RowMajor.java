package io.privmat.query.render;

/** Row-major arrays as nested rows for JSON results. */
final class RowMajor {

    private RowMajor() {}

    static double[][] rows(double[] rowMajor, int r, int c) {
        double[][] out = new double[r][c];
        for (int i = 0; i < r; i++) {
            System.arraycopy(rowMajor, i * c, out[i], 0, c);
        }
        return out;
    }
}
