package io.privmat.mechanism.linear;

import java.util.Locale;

/**
 * Options of the Low-Rank Mechanism's solver, defaults as in the authors' code (all public; part of
 * the strategy cache key).
 *
 * @param rankFactor r = ⌈rankFactor·rank(W)⌉ (default 1.2)
 * @param rankTolerance singular values above it count towards rank(W) (default 0.01)
 * @param residualTolerance stop when ‖W − BL‖_F is below it (default 0.01)
 * @param maxIterations outer augmented-Lagrangian iterations (default 100)
 */
public record LowRankOptions(double rankFactor, double rankTolerance, double residualTolerance, int maxIterations) {

    public LowRankOptions {
        if (!(rankFactor >= 1) || rankFactor > 4) {
            throw LinearQueryException.invalid("options.rankFactor", "rankFactor must be in [1, 4]");
        }
        if (!(rankTolerance > 0) || !(residualTolerance > 0)) {
            throw LinearQueryException.invalid("options.tolerance", "tolerances must be positive");
        }
        if (maxIterations < 1 || maxIterations > 10_000) {
            throw LinearQueryException.invalid("options.maxIterations", "maxIterations must be in [1, 10000]");
        }
    }

    public static LowRankOptions defaults() {
        return new LowRankOptions(1.2, 0.01, 0.01, 100);
    }

    public LowRankOptions withMaxIterations(int iterations) {
        return new LowRankOptions(rankFactor, rankTolerance, residualTolerance, iterations);
    }

    public String canonical() {
        return String.format(Locale.ROOT, "rankFactor=%s;rankTolerance=%s;residualTolerance=%s;maxIterations=%d",
                Double.toString(rankFactor), Double.toString(rankTolerance), Double.toString(residualTolerance),
                maxIterations);
    }
}
