package io.privmat.mechanism.noise;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;

/** Chi-square goodness of fit of integer samples against an exact pmf, with quantile bins. */
final class ChiSquare {

    /** Upper 1e-6 quantile of χ² with df degrees of freedom (Wilson–Hilferty). */
    static double critical(int df) {
        double z = 4.753;
        double a = 2.0 / (9 * df);
        return df * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }

    record Result(double statistic, int degreesOfFreedom) {
        boolean passes() {
            return statistic < critical(degreesOfFreedom);
        }
    }

    /**
     * @param pmf unnormalised probability of each integer in [lo, hi]; mass outside is ignored
     *     (callers pick lo/hi far in the tails)
     */
    static Result test(long[] samples, long lo, long hi, LongToDoubleFunction pmf, int bins) {
        int width = Math.toIntExact(hi - lo + 1);
        double[] p = new double[width];
        double total = 0;
        for (int i = 0; i < width; i++) {
            p[i] = pmf.applyAsDouble(lo + i);
            total += p[i];
        }
        // Bin edges at equal cumulative probability (each bin keeps whole integers).
        List<Integer> edges = new ArrayList<>();
        double target = 1.0 / bins;
        double acc = 0;
        edges.add(0);
        for (int i = 0; i < width; i++) {
            acc += p[i] / total;
            if (acc >= target * edges.size() && edges.size() < bins && i + 1 < width) {
                edges.add(i + 1);
            }
        }
        edges.add(width);
        int k = edges.size() - 1;
        double[] expected = new double[k];
        int[] binOf = new int[width];
        for (int b = 0; b < k; b++) {
            for (int i = edges.get(b); i < edges.get(b + 1); i++) {
                expected[b] += p[i] / total * samples.length;
                binOf[i] = b;
            }
        }
        long[] observed = new long[k];
        for (long s : samples) {
            long idx = Math.max(0, Math.min(width - 1, s - lo));
            observed[binOf[(int) idx]]++;
        }
        double stat = 0;
        for (int b = 0; b < k; b++) {
            double diff = observed[b] - expected[b];
            stat += diff * diff / expected[b];
        }
        return new Result(stat, k - 1);
    }
}
