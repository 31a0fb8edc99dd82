package io.privmat.bench;

import java.util.Arrays;
import java.util.List;

/** Statistics the benchmarks print: one median for all of them (the mean of the middle two for an even count). */
final class BenchStats {

    private BenchStats() {
    }

    static double median(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }

    static double median(List<Double> values) {
        return median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
