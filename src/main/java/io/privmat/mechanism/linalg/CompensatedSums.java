package io.privmat.mechanism.linalg;

/**
 * Per-column sums with Neumaier's compensated summation: the result's rounding error stays of the
 * order of one rounding of the sum instead of growing with the number of terms. The column sums of
 * COLUMN_SUMS mechanisms accumulate through it.
 */
public final class CompensatedSums {

    private final double[] sum;
    private final double[] compensation;

    public CompensatedSums(int columns) {
        this.sum = new double[columns];
        this.compensation = new double[columns];
    }

    /** Adds {@code value} to column {@code column}'s sum. */
    public void add(int column, double value) {
        double s = sum[column];
        double t = s + value;
        compensation[column] += Math.abs(s) >= Math.abs(value) ? (s - t) + value : (value - t) + s;
        sum[column] = t;
    }

    /** The sums, compensation included (a new array). */
    public double[] result() {
        double[] out = new double[sum.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = sum[c] + compensation[c];
        }
        return out;
    }
}
