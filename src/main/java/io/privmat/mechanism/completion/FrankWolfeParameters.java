package io.privmat.mechanism.completion;

/**
 * The public hyper-parameters of private Frank–Wolfe (never derived from data).
 *
 * @param domain items n, rating range, per-user cap s (so L = (hi − lo)/2·√s)
 * @param relation USER, USER_ADD_REMOVE, or RATING (calibrated as USER: a rating change is a
 *     special case of a row replacement; no entry-level gain is claimed)
 * @param nuclearRadius k &gt; 0: the constraint ‖Y‖_* ≤ k on the centred completed matrix
 * @param iterations T ≥ 1: Frank–Wolfe steps = Gaussian releases
 * @param schedule the step sizes η_t
 * @param beta β ∈ (0, 1): the per-iteration failure probability of the public bound λ̂′ ≥ σ₁
 * @param lanczosSteps q ≥ 1: fixed number of Lanczos products per top-eigenpair computation
 */
public record FrankWolfeParameters(RatingsDomain domain, RatingsRelation relation, double nuclearRadius,
        int iterations, StepSchedule schedule, double beta, int lanczosSteps) {

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

    /** Step sizes of Frank–Wolfe. */
    public enum StepSchedule {
        /** η = 1/T at every step, as in Jain–Thakkar–Thakurta's Algorithm 1. */
        CONSTANT,
        /** η_t = 2/(t + 1), t = 1..T: the classical Frank–Wolfe schedule (the first step is a full step). */
        STANDARD
    }

    public FrankWolfeParameters {
        java.util.Objects.requireNonNull(domain);
        java.util.Objects.requireNonNull(relation);
        java.util.Objects.requireNonNull(schedule);
        if (!(nuclearRadius > 0) || !Double.isFinite(nuclearRadius)) {
            throw new IllegalArgumentException("nuclearRadius must be positive and finite");
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
        if (domain.items() > MAX_ITEMS) {
            throw new IllegalArgumentException("private Frank–Wolfe takes at most " + MAX_ITEMS + " items");
        }
    }

    /** Defaults: CONSTANT steps, β = 0.01, q = 24. */
    public static FrankWolfeParameters of(RatingsDomain domain, RatingsRelation relation, double nuclearRadius,
            int iterations) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, StepSchedule.CONSTANT,
                DEFAULT_BETA, DEFAULT_LANCZOS_STEPS);
    }

    public FrankWolfeParameters withSchedule(StepSchedule s) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, s, beta, lanczosSteps);
    }

    public FrankWolfeParameters withLanczosSteps(int q) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, schedule, beta, q);
    }

    /** η_t for step t = 1..T. */
    double stepSize(int t) {
        return schedule == StepSchedule.CONSTANT ? 1.0 / iterations : 2.0 / (t + 1);
    }
}
