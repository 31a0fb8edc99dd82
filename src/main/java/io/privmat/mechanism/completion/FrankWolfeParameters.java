package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.privacy.GaussianCalibration;

/**
 * The public hyper-parameters of private Frank–Wolfe (never derived from data).
 *
 * @param domain items n, rating range, per-user cap s (so L = (hi − lo)/2·√s)
 * @param relation USER, USER_ADD_REMOVE, or RATING (calibrated as USER: a rating change is a
 *     special case of a row replacement; no entry-level gain is claimed)
 * @param nuclearRadius k &gt; 0: the constraint ‖Y‖_* ≤ k on the centred completed matrix, used by
 *     the CONSTANT and STANDARD schedules; ignored (conventionally NaN) by FULLY_CORRECTIVE
 * @param iterations T ≥ 1: Frank–Wolfe steps = Gaussian releases
 * @param schedule how the iterate moves after each release
 * @param beta β ∈ (0, 1): the per-iteration failure probability of the public bound λ̂′ ≥ σ₁
 * @param lanczosSteps q ≥ 1: fixed number of Lanczos products per top-eigenpair computation
 * @param gradientClip C &gt; 0: every user's gradient row is scaled to norm ≤ C before it enters a
 *     released Gram ({@link #clip(int)}); +∞ keeps the paper's bounds (L, then 2L)
 * @param ridge λ ≥ 0 of the FULLY_CORRECTIVE local least-squares fit (ignored by the others)
 */
public record FrankWolfeParameters(RatingsDomain domain, RatingsRelation relation, double nuclearRadius,
        int iterations, StepSchedule schedule, double beta, int lanczosSteps, double gradientClip, double ridge) {

    /**
     * Largest n: W_t is formed and released exactly on the grid, three n × n arrays (W, the integer
     * noise, Ŵ) of 32 MB each at 2048. (A variant that never formed W computed W·v in floating point
     * from the unrounded gradients; that release is not differentially private and was withdrawn:
     * docs/mechanisms/completion.md, "Why there is no memory-light variant".)
     */
    public static final int MAX_ITEMS = 2048;
    public static final int MAX_ITERATIONS = 1000;
    /** Most Lanczos steps (the basis holds q vectors of n doubles). */
    public static final int MAX_LANCZOS_STEPS = 200;
    public static final int DEFAULT_LANCZOS_STEPS = 24;
    public static final double DEFAULT_BETA = 0.01;
    public static final double DEFAULT_RIDGE = 1e-3;

    /** How the iterate moves after each release (docs/mechanisms/completion.md, "Schedules"). */
    public enum StepSchedule {
        /** η = 1/T at every step, as in Jain–Thakkar–Thakurta's Algorithm 1. */
        CONSTANT,
        /** η_t = 2/(t + 1), t = 1..T: the classical Frank–Wolfe schedule (the first step is a full step). */
        STANDARD,
        /**
         * Fully corrective over the span: after each release every user refits their row by ridge least
         * squares on all the directions released so far (Shalev-Shwartz, Gonen, Shamir 2011); each
         * release's direction is the top eigenvector of the noisy residual Gram with the earlier
         * directions projected out. No nuclear radius.
         */
        FULLY_CORRECTIVE;

        /** Whether the step uses the nuclear radius k (the two Frank–Wolfe step sizes do). */
        public boolean usesRadius() {
            return this != FULLY_CORRECTIVE;
        }
    }

    public FrankWolfeParameters {
        java.util.Objects.requireNonNull(domain);
        java.util.Objects.requireNonNull(relation);
        java.util.Objects.requireNonNull(schedule);
        if (schedule.usesRadius() && (!(nuclearRadius > 0) || !Double.isFinite(nuclearRadius))) {
            throw new IllegalArgumentException("nuclearRadius must be positive and finite with schedule " + schedule);
        }
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations must be in [1, " + MAX_ITERATIONS + "]");
        }
        if (!(beta > 0 && beta < 1)) {
            throw new IllegalArgumentException("beta must be in (0, 1)");
        }
        if (lanczosSteps < 1 || lanczosSteps > MAX_LANCZOS_STEPS) {
            throw new IllegalArgumentException("lanczosSteps must be in [1, " + MAX_LANCZOS_STEPS + "]");
        }
        if (!(gradientClip > 0)) {
            throw new IllegalArgumentException("gradientClip must be positive");
        }
        if (!(ridge >= 0) || !Double.isFinite(ridge)) {
            throw new IllegalArgumentException("ridge must be non-negative and finite");
        }
        if (domain.items() > MAX_ITEMS) {
            throw new IllegalArgumentException("private Frank–Wolfe takes at most " + MAX_ITEMS + " items");
        }
    }

    /**
     * The default clip C = L/4 = (hi − lo)/8·√s: a quarter of the largest norm a user's centred
     * ratings can have, so every release's sensitivity is 1/16 of the unclipped first release's and
     * 1/64 of the paper's later ones (docs/accuracy/completion.md measures the trade-off: the bias of
     * clipping the few long rows costs less than the noise it saves).
     */
    public static double defaultGradientClip(RatingsDomain domain) {
        return domain.rowBound() / 4;
    }

    /**
     * The default T for a run whose releases together are μ-GDP: T = min(⌈s/2⌉, 2 + ⌈8μ⌉) — more
     * directions when the budget can pay for them (3 at ε ≤ 0.5, 4 at ε = 1, 6 at ε = 2, 11 at ε = 5 with
     * δ = 10⁻⁶), but never more than half the ratings a user may have, so that a user at the cap fits
     * each direction with at least two ratings (and T ≤ n, as s ≤ n). Public facts only.
     */
    public static int defaultIterations(RatingsDomain domain, double mu) {
        long byBudget = 2 + (long) Math.ceil(8 * Math.min(mu, MAX_ITERATIONS));
        long cap = (domain.perUserCap() + 1) / 2;
        return (int) Math.max(1, Math.min(MAX_ITERATIONS, Math.min(cap, byBudget)));
    }

    /** μ of the Gaussian DP that an (ε, δ) budget allows (1/σ of the analytic Gaussian at unit sensitivity). */
    public static double mu(double epsilon, double delta) {
        return 1 / GaussianCalibration.analyticSigma(epsilon, delta, 1);
    }

    /** μ of the Gaussian DP that a ρ-zCDP budget allows: √(2ρ). */
    public static double mu(double rho) {
        return Math.sqrt(2 * rho);
    }

    /**
     * The defaults for a μ-GDP run: FULLY_CORRECTIVE, T and C by their rules, ridge 10⁻³, β = 0.01,
     * q = 24. No nuclear radius.
     */
    public static FrankWolfeParameters defaults(RatingsDomain domain, RatingsRelation relation, double mu) {
        return new FrankWolfeParameters(domain, relation, Double.NaN, defaultIterations(domain, mu),
                StepSchedule.FULLY_CORRECTIVE, DEFAULT_BETA, DEFAULT_LANCZOS_STEPS, defaultGradientClip(domain),
                DEFAULT_RIDGE);
    }

    public FrankWolfeParameters withIterations(int t) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, t, schedule, beta, lanczosSteps, gradientClip,
                ridge);
    }

    /** The paper's algorithm: CONSTANT steps, no clipping beyond its bounds, β = 0.01, q = 24. */
    public static FrankWolfeParameters of(RatingsDomain domain, RatingsRelation relation, double nuclearRadius,
            int iterations) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, StepSchedule.CONSTANT,
                DEFAULT_BETA, DEFAULT_LANCZOS_STEPS, Double.POSITIVE_INFINITY, DEFAULT_RIDGE);
    }

    public FrankWolfeParameters withSchedule(StepSchedule s) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, s, beta, lanczosSteps, gradientClip,
                ridge);
    }

    public FrankWolfeParameters withLanczosSteps(int q) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, schedule, beta, q, gradientClip,
                ridge);
    }

    public FrankWolfeParameters withGradientClip(double c) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, schedule, beta, lanczosSteps, c,
                ridge);
    }

    public FrankWolfeParameters withRidge(double lambda) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, schedule, beta, lanczosSteps,
                gradientClip, lambda);
    }

    /**
     * C_t, the norm bound of a gradient row in release t = 0..T−1: min(C, B_t) with B_t the bound that
     * holds without clipping — L for the first release (Y⁰ = 0, so Aᵢ = −P_Ω(Y*ᵢ)) and for every
     * release of FULLY_CORRECTIVE (a ridge residual is no longer than the ratings it fits), 2L for the
     * later releases of CONSTANT and STANDARD (‖P_Ω(Yᵢ)‖ ≤ L by the projection Π_{L,Ω}).
     */
    public double clip(int release) {
        double l = domain.rowBound();
        double bound = release == 0 || schedule == StepSchedule.FULLY_CORRECTIVE ? l : 2 * l;
        return Math.min(gradientClip, bound);
    }

    /** η_t for step t = 1..T (CONSTANT and STANDARD). */
    double stepSize(int t) {
        return schedule == StepSchedule.CONSTANT ? 1.0 / iterations : 2.0 / (t + 1);
    }
}
