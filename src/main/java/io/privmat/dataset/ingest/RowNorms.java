package io.privmat.dataset.ingest;

/** L2 norms that neither overflow nor underflow. */
final class RowNorms {

    private RowNorms() {}

    static double l2(double[] values, int from, int length) {
        double sum = 0;
        for (int i = from; i < from + length; i++) {
            sum += values[i] * values[i];
        }
        if (Double.isFinite(sum) && sum > 1e-280) {
            return Math.sqrt(sum);
        }
        double max = 0;
        for (int i = from; i < from + length; i++) {
            max = Math.max(max, Math.abs(values[i]));
        }
        if (max == 0) {
            return 0;
        }
        double scaled = 0;
        for (int i = from; i < from + length; i++) {
            double v = values[i] / max;
            scaled += v * v;
        }
        return max * Math.sqrt(scaled);
    }
}
