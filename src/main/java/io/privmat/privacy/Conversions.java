package io.privmat.privacy;

import java.util.function.DoubleUnaryOperator;

/**
 * Conversions between privacy notions, every one explicit and named (never implicit).
 *
 * <p>Results that are costs are rounded up; caps are rounded down (see {@link Rounding}).
 * Conversions that take an infimum over Rényi orders α evaluate the bound at the α found
 * numerically: every α &gt; 1 gives a valid bound, so an imperfect optimiser can only be
 * pessimistic, never unsafe.
 */
public final class Conversions {

    private static final double ALPHA_MIN_LOG = Math.log(1e-7);
    private static final double ALPHA_MAX_LOG = Math.log(1e7);
    private static final int GRID = 600;

    private Conversions() {}

    /** Pure ε-DP ⇒ (ε²/2)-zCDP (Bun and Steinke 2016, Proposition 1.4). Rounded up. */
    public static double pureToZcdp(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        return Rounding.up(epsilon * epsilon / 2);
    }

    /**
     * ε-bounded-range (the exponential mechanism) ⇒ (ε²/8)-zCDP (Cesar and Rogers 2021,
     * arXiv:2004.07223, Lemma 3.2). Rounded up.
     */
    public static double boundedRangeToZcdp(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        return Rounding.up(epsilon * epsilon / 8);
    }

    /** Gaussian with L2 sensitivity Δ and std σ is Δ²/(2σ²)-zCDP (BS16, Proposition 1.6). Up. */
    public static double gaussianToZcdp(double l2Sensitivity, double sigma) {
        Checks.positive("l2Sensitivity", l2Sensitivity);
        Checks.positive("sigma", sigma);
        double ratio = l2Sensitivity / sigma;
        return Rounding.up(ratio * ratio / 2);
    }

    /**
     * (ε, δ)-DP ⇒ δ-approximately (ε²/2)-zCDP (docs/accounting.md §4: decompose the (ε, δ) pair as a
     * mixture of an ε-DP pair and a δ-mass event, then BS16 Proposition 1.4).
     */
    public static ApproxZcdp approxDpToApproxZcdp(ApproxDp loss) {
        return new ApproxZcdp(Decimals.halfSquareUp(loss.epsilon()), loss.delta());
    }

    /**
     * ρ-zCDP ⇒ (ρ + 2√(ρ·ln(1/δ)), δ)-DP (Bun and Steinke 2016, Proposition 1.3). Rounded up.
     *
     * @param delta δ ∈ (0, 1)
     */
    public static double zcdpToEpsilonBunSteinke(double rho, double delta) {
        Checks.nonNegative("rho", rho);
        Checks.inOpen("delta", delta, 0, 1);
        return Rounding.up(rho + 2 * Math.sqrt(rho * Math.log(1 / delta)));
    }

    /**
     * ρ-zCDP ⇒ (ε, δ)-DP with ε = inf_{α&gt;1} [αρ + c(α, δ)],
     * c(α, δ) = (ln(1/δ) + (α−1)·ln(1−1/α) − ln α)/(α−1)
     * (Canonne, Kamath, Steinke 2020, arXiv:2004.00010, Proposition 12 / Corollary 13; the same
     * per-order RDP conversion as Balle et al. 2020, Theorem 21). Never larger than
     * {@link #zcdpToEpsilonBunSteinke}. Rounded up.
     *
     * @param delta δ ∈ (0, 1)
     */
    public static double zcdpToEpsilonCks(double rho, double delta) {
        Checks.nonNegative("rho", rho);
        Checks.inOpen("delta", delta, 0, 1);
        if (rho == 0) {
            return 0;
        }
        DoubleUnaryOperator epsAt = alpha -> alpha * rho + conversionTerm(alpha, delta);
        double alpha = argMinOverAlpha(epsAt);
        double eps = Math.max(0, Rounding.upLoose(epsAt.applyAsDouble(alpha)));
        return Math.min(eps, zcdpToEpsilonBunSteinke(rho, delta));
    }

    /**
     * ρ-zCDP ⇒ the smallest δ (CKS20 Corollary 13) at a given ε:
     * δ = inf_{α&gt;1} exp((α−1)(αρ − ε) + (α−1)·ln(1−1/α) − ln α). Rounded up, at most 1.
     */
    public static double zcdpToDeltaCks(double rho, double epsilon) {
        Checks.nonNegative("rho", rho);
        Checks.nonNegative("epsilon", epsilon);
        if (rho == 0) {
            return 0;
        }
        DoubleUnaryOperator logDeltaAt = alpha ->
                (alpha - 1) * (alpha * rho - epsilon) + (alpha - 1) * Math.log1p(-1 / alpha) - Math.log(alpha);
        double alpha = argMinOverAlpha(logDeltaAt);
        double logDelta = logDeltaAt.applyAsDouble(alpha);
        return Math.min(1.0, Rounding.upLoose(Math.exp(logDelta + Math.abs(logDelta) * 1e-12)));
    }

    /**
     * The largest ρ such that ρ-zCDP implies (ε, δ)-DP by the CKS20 conversion:
     * ρ_B = max_α [ε − c(α, δ)]/α (docs/accounting.md §4, "budget inversion"), with
     * the order α* that attains it. ρ_B is rounded down with a relative margin of 1e-9 so that
     * converting it back can never exceed ε.
     */
    public static RhoBudget largestZcdpRho(double epsilon, double delta) {
        Checks.positive("epsilon", epsilon);
        Checks.inOpen("delta", delta, 0, 1);
        DoubleUnaryOperator negRho = alpha -> -(epsilon - conversionTerm(alpha, delta)) / alpha;
        double alpha = argMinOverAlpha(negRho);
        double rho = -negRho.applyAsDouble(alpha);
        if (!(rho > 0)) {
            throw new PrivacyArgumentException("delta", "(0, 1)",
                    "no positive rho converts to epsilon " + epsilon + " at delta " + delta);
        }
        return new RhoBudget(Math.nextDown(rho * (1 - 1e-9)), alpha);
    }

    /**
     * μ-GDP ⇒ exact δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) (Dong, Roth, Su, Corollary 2.13).
     * The two terms are evaluated in log space; the result is widened by the evaluation error of
     * Φ so that it is an upper bound on the exact value.
     */
    public static double gdpDelta(double mu, double epsilon) {
        Checks.positive("mu", mu);
        Checks.nonNegative("epsilon", epsilon);
        double a = -epsilon / mu + mu / 2;
        double b = -epsilon / mu - mu / 2;
        double logFirst = StandardNormal.logCdf(a);
        double logSecond = StandardNormal.logCdf(b);
        double first = Math.exp(logFirst);
        double second = Math.exp(epsilon + logSecond);
        double delta = first - second;
        // Evaluation error: Φ to ~1e-13 relative, plus the absolute error of the exponents
        // (a few ulps of their magnitude), which exp turns into relative error.
        double error = first * (1e-12 + 1e-15 * Math.abs(logFirst))
                + second * (1e-12 + 1e-15 * (epsilon + Math.abs(logSecond)));
        return Math.min(1.0, Math.max(0.0, Math.nextUp(delta + error)));
    }

    /** μ-GDP ⇒ the smallest ε with {@link #gdpDelta}(μ, ε) ≤ δ, by bisection; rounded up. */
    public static double gdpEpsilon(double mu, double delta) {
        Checks.positive("mu", mu);
        Checks.inOpen("delta", delta, 0, 1);
        if (gdpDelta(mu, 0) <= delta) {
            return 0;
        }
        double lo = 0;
        double hi = Math.max(1.0, mu);
        while (gdpDelta(mu, hi) > delta) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (gdpDelta(mu, mid) > delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Rounding.up(hi);
    }

    /** c(α, δ) = (ln(1/δ) + (α−1)·ln(1−1/α) − ln α)/(α−1), CKS20 Proposition 12. */
    static double conversionTerm(double alpha, double delta) {
        return (-Math.log(delta) + (alpha - 1) * Math.log1p(-1 / alpha) - Math.log(alpha)) / (alpha - 1);
    }

    /**
     * Minimises f over α ∈ (1 + 1e-7, 1 + 1e7): a log-spaced grid on u = ln(α−1) locates the
     * basin, golden-section search refines it. Returns the best α seen.
     */
    static double argMinOverAlpha(DoubleUnaryOperator f) {
        double step = (ALPHA_MAX_LOG - ALPHA_MIN_LOG) / GRID;
        int best = 0;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= GRID; i++) {
            double v = f.applyAsDouble(1 + Math.exp(ALPHA_MIN_LOG + i * step));
            if (v < bestValue) {
                bestValue = v;
                best = i;
            }
        }
        double lo = ALPHA_MIN_LOG + Math.max(0, best - 1) * step;
        double hi = ALPHA_MIN_LOG + Math.min(GRID, best + 1) * step;
        final double ratio = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - ratio * (hi - lo);
        double x2 = lo + ratio * (hi - lo);
        double f1 = f.applyAsDouble(1 + Math.exp(x1));
        double f2 = f.applyAsDouble(1 + Math.exp(x2));
        for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
            if (f1 <= f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - ratio * (hi - lo);
                f1 = f.applyAsDouble(1 + Math.exp(x1));
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + ratio * (hi - lo);
                f2 = f.applyAsDouble(1 + Math.exp(x2));
            }
        }
        double candidate = f1 <= f2 ? x1 : x2;
        double candidateValue = Math.min(f1, f2);
        double gridAlpha = 1 + Math.exp(ALPHA_MIN_LOG + best * step);
        return candidateValue <= bestValue ? 1 + Math.exp(candidate) : gridAlpha;
    }
}
