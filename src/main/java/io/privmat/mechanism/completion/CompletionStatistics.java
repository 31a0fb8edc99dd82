package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;
import java.util.Arrays;

/**
 * The exact pre-noise statistics of the completion mechanisms, for the mechanism contract tests
 * (which check a declared sensitivity against how far these move between neighbouring datasets);
 * never released. docs/mechanisms/completion.md, "Privacy".
 */
public final class CompletionStatistics {

    private CompletionStatistics() {}

    /**
     * W₀ = Σᵢ P_Ω(Y*ᵢ)ᵀP_Ω(Y*ᵢ) over the centred ratings (n × n, full): the one release of private
     * SVD (and, with unclipped rows, the first of private Frank–Wolfe).
     */
    public static double[] firstGram(RatingsSource source, RatingsDomain domain) {
        try (UserPasses passes = UserPasses.of(source, domain)) {
            return symmetric(passes.pass(new RatingsGramStatistic(domain)), domain.items());
        }
    }

    /**
     * Private Frank–Wolfe's first two released Grams, each over its own sensitivity: W₀ of the clipped
     * centred ratings (Y⁰ = 0), then W₁ of the clipped gradient rows after one local step on the public
     * witness broadcast v = e_{n−1} (with λ̂′ = 1 for the paper's steps; the basis {v} for
     * FULLY_CORRECTIVE). Each part moves by at most 1 between neighbours — the bound holds for every
     * broadcast, because every row is clipped to C_t — so the whole moves by at most √2 in L2.
     */
    public static double[] frankWolfeStatistics(RatingsSource source, FrankWolfeParameters params) {
        int n = params.domain().items();
        double[] first;
        double[] second;
        try (UserPasses passes = UserPasses.of(source, params.domain())) {
            first = symmetric(passes.pass(new GradientGramStatistic(n, params.clip(0), null)), n);
            double[] v = new double[n];
            v[n - 1] = 1;
            GradientGramStatistic.Step step =
                    params.schedule() == FrankWolfeParameters.StepSchedule.FULLY_CORRECTIVE
                            ? GradientGramStatistic.Step.refit(v, 1, params.ridge())
                            : GradientGramStatistic.Step.paper(v, 1, params.stepSize(1), params.nuclearRadius(),
                                    params.domain().rowBound());
            second = symmetric(passes.pass(new GradientGramStatistic(n, params.clip(1), step)), n);
        }
        double d0 = PrivateFrankWolfeMechanism.firstSensitivity(params);
        double d1 = PrivateFrankWolfeMechanism.sensitivity(params);
        double[] out = new double[2 * n * n];
        for (int i = 0; i < n * n; i++) {
            out[i] = first[i] / d0;
            out[n * n + i] = second[i] / d1;
        }
        return out;
    }

    private static double[] symmetric(double[] upper, int n) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                upper[i * n + j] = upper[j * n + i];
            }
        }
        return upper;
    }

    /**
     * Private ALS's item statistics for a public V (n × r): the stacked Grams G_j divided by their
     * Frobenius sensitivity, followed by the stacked right-hand sides b_j divided by their L2
     * sensitivity. Each part moves by at most 1 between neighbours whatever V is (every user's fit is
     * clipped to ‖uᵢ‖ ≤ C), so the whole moves by at most √2 in L2: the two releases of one ALS step
     * as one Gaussian of sensitivity √2 at unit noise, which is how their GDP composition adds up.
     */
    public static double[] alsStatistics(RatingsSource source, AlsParameters params, double[] v) {
        DpAlsMechanism.Statistics s;
        try (UserPasses passes = UserPasses.of(source, params.domain())) {
            s = DpAlsMechanism.statistics(passes, v, params);
        }
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
