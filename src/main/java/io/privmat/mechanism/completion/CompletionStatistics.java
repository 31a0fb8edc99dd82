package io.privmat.mechanism.completion;

import java.util.Arrays;

/**
 * The exact pre-noise statistics of the completion mechanisms, for the mechanism contract tests
 * (which check a declared sensitivity against how far these move between neighbouring datasets);
 * never released. docs/mechanisms/completion.md, "Privacy".
 */
public final class CompletionStatistics {

    private CompletionStatistics() {}

    /**
     * W₀ = Σᵢ P_Ω(Y*ᵢ)ᵀP_Ω(Y*ᵢ) over the centred ratings (n × n, full): the first release of private
     * Frank–Wolfe (Y⁰ = 0) and the one release of private SVD.
     */
    public static double[] firstGram(RatingsSource source, RatingsDomain domain) {
        RatingsMatrix data = RatingsMatrix.load(source, domain);
        double[] w = Grams.gradientGram(data, new double[data.ratings()]);
        int n = domain.items();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                w[i * n + j] = w[j * n + i];
            }
        }
        return w;
    }

    /**
     * Private ALS's item statistics for a public V (n × r): the stacked Grams G_j divided by their
     * Frobenius sensitivity, followed by the stacked right-hand sides b_j divided by their L2
     * sensitivity. Each part moves by at most 1 between neighbours whatever V is (every user's fit is
     * clipped to ‖uᵢ‖ ≤ C), so the whole moves by at most √2 in L2: the two releases of one ALS step
     * as one Gaussian of sensitivity √2 at unit noise, which is how their GDP composition adds up.
     */
    public static double[] alsStatistics(RatingsSource source, AlsParameters params, double[] v) {
        RatingsMatrix data = RatingsMatrix.load(source, params.domain());
        DpAlsMechanism.Statistics s = DpAlsMechanism.statistics(data, v, params);
        double dg = DpAlsMechanism.gramSensitivity(params);
        double db = DpAlsMechanism.rhsSensitivity(params);
        double[] out = Arrays.copyOf(s.grams(), s.grams().length + s.rhs().length);
        for (int i = 0; i < s.grams().length; i++) {
            out[i] /= dg;
        }
        for (int i = 0; i < s.rhs().length; i++) {
            out[s.grams().length + i] = s.rhs()[i] / db;
        }
        return out;
    }
}
