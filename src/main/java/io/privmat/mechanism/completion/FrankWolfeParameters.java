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
 * @param variant where W lives: DENSE (n × n held) or MEMORY_LIGHT (never formed)
 */
public record FrankWolfeParameters(RatingsDomain domain, RatingsRelation relation, double nuclearRadius,
        int iterations, StepSchedule schedule, double beta, int lanczosSteps, Variant variant) {

    /** Largest n for the dense variant: three n × n arrays (W, the integer noise, Ŵ) of 32 MB each at 2048. */
    public static final int MAX_DENSE_ITEMS = 2048;
    /**
     * Largest n for the memory-light variant. Its cost is n² exact Gaussian samples per product
     * (q products per iteration), about n²·q·T / (1.8·10⁶ per core) seconds: at n = 8192, q = 16,
     * T = 10 that is already about 1.7 hours on one core.
     */
    public static final int MAX_LIGHT_ITEMS = 8192;
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

    /** Where W_t = Σᵢ AᵢᵀAᵢ lives. Both add the same noise distribution. */
    public enum Variant {
        /** W is formed (n² memory) and released exactly on the grid, Ŵ = round(W) + N. */
        DENSE,
        /** W is never formed: W·v = Σᵢ Aᵢᵀ(Aᵢv) from the sparse rows, N·v regenerated from a secret stream. */
        MEMORY_LIGHT
    }

    public FrankWolfeParameters {
        java.util.Objects.requireNonNull(domain);
        java.util.Objects.requireNonNull(relation);
        java.util.Objects.requireNonNull(schedule);
        java.util.Objects.requireNonNull(variant);
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
        int limit = variant == Variant.DENSE ? MAX_DENSE_ITEMS : MAX_LIGHT_ITEMS;
        if (domain.items() > limit) {
            throw new IllegalArgumentException("the " + variant + " variant takes at most " + limit + " items");
        }
    }

    /** Defaults: CONSTANT steps, β = 0.01, q = 24, DENSE up to {@link #MAX_DENSE_ITEMS} items, else MEMORY_LIGHT. */
    public static FrankWolfeParameters of(RatingsDomain domain, RatingsRelation relation, double nuclearRadius,
            int iterations) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, StepSchedule.CONSTANT,
                DEFAULT_BETA, DEFAULT_LANCZOS_STEPS,
                domain.items() <= MAX_DENSE_ITEMS ? Variant.DENSE : Variant.MEMORY_LIGHT);
    }

    public FrankWolfeParameters withSchedule(StepSchedule s) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, s, beta, lanczosSteps, variant);
    }

    public FrankWolfeParameters withVariant(Variant v) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, schedule, beta, lanczosSteps, v);
    }

    public FrankWolfeParameters withLanczosSteps(int q) {
        return new FrankWolfeParameters(domain, relation, nuclearRadius, iterations, schedule, beta, q, variant);
    }

    /** η_t for step t = 1..T. */
    double stepSize(int t) {
        return schedule == StepSchedule.CONSTANT ? 1.0 / iterations : 2.0 / (t + 1);
    }
}
