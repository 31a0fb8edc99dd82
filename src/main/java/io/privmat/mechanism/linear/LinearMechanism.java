package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.catalog.QueryBudget;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The mechanisms for a batch of linear queries (docs/mechanisms/linear-queries.md). Each constant owns
 * what sets it apart — its summary, budget form, how its strategy is built or which stored strategy
 * it needs — so the code shared by the family ({@link LinearQueryPlan}, {@link LinearQueries},
 * {@link Strategies}) asks a capability and names no mechanism.
 */
public enum LinearMechanism {
    /** Laplace noise on x (pure ε); answers W·x̂. */
    LAPLACE_IDENTITY(QueryBudget.Form.PURE_EPSILON, "A batch of linear queries answered from the histogram plus "
            + "discrete Laplace noise on every cell (pure epsilon-DP)."),
    /** Gaussian noise on x (ρ-zCDP or (ε, δ)); answers W·x̂. */
    GAUSSIAN_IDENTITY(QueryBudget.Form.GAUSSIAN, "A batch of linear queries answered from the histogram plus "
            + "discrete Gaussian noise on every cell (rho-zCDP, or (epsilon, delta))."),
    /** Laplace noise on W·x directly (pure ε), L1 sensitivity the largest column L1 norm of W. */
    LAPLACE_WORKLOAD(QueryBudget.Form.PURE_EPSILON, "A batch of linear queries answered directly with discrete "
            + "Laplace noise on each answer, scaled to the workload's largest column L1 norm (pure epsilon-DP).") {
        @Override
        @Nullable Strategy planStrategy(Workload workload, boolean pure, @Nullable Strategy computed) {
            requireForm(pure);
            return null;
        }

        @Override
        public boolean measuresWorkload() {
            return true;
        }
    },
    /** The binary-tree strategy with least-squares inference; Laplace (ε) or Gaussian (ρ, (ε, δ)). */
    HIERARCHICAL(QueryBudget.Form.PURE_OR_GAUSSIAN, "A batch of linear queries through the binary-tree strategy "
            + "with least-squares inference: Laplace noise with epsilon alone, Gaussian with rho or (epsilon, delta).") {
        @Override
        Strategy builtStrategy(Workload workload) {
            return Strategies.hierarchical(workload);
        }

        @Override
        public boolean noiseChosenByParam() {
            return true;
        }
    },
    /** The Low-Rank Mechanism (Yuan et al. 2012): W ≈ B·L, Laplace noise on L·x (pure ε). */
    LOW_RANK_MECHANISM(QueryBudget.Form.PURE_EPSILON, "A batch of linear queries through the Low-Rank Mechanism "
            + "(W ≈ B·L, Laplace noise on L·x, pure epsilon-DP); its factorisation is a cached public strategy.") {
        @Override
        @Nullable Strategy planStrategy(Workload workload, boolean pure, @Nullable Strategy computed) {
            requireForm(pure);
            if (!(computed instanceof LowRankStrategy)) {
                throw new LinearQueryException(LinearQueryException.Reason.UNSUPPORTED, "strategy",
                        this + " needs the Low-Rank strategy computed for this workload");
            }
            return requireFor(workload, computed);
        }

        @Override
        public boolean answersFromStoredStrategy() {
            return true;
        }

        @Override
        public boolean reportsResidual() {
            return true;
        }

        @Override
        boolean needsDenseGram(boolean productWorkload) {
            return true;
        }

        @Override
        StoredStrategyRecipe recipe(Workload w, OptimizerOptions optimizer) {
            LowRankOptions options = LowRankOptions.defaults();
            return new StoredStrategyRecipe(options.canonical(), StrategyCost.lowRank(w, options), "every iteration",
                    control -> Strategies.lowRank(w, options, control));
        }
    },
    /** The Gaussian matrix mechanism with an optimised strategy (ρ-zCDP or (ε, δ)). */
    OPTIMIZED(QueryBudget.Form.GAUSSIAN, "A batch of linear queries through the Gaussian matrix mechanism with an "
            + "optimised strategy (rho-zCDP, or (epsilon, delta)); the strategy is a cached public artifact.") {
        @Override
        @Nullable Strategy planStrategy(Workload workload, boolean pure, @Nullable Strategy computed) {
            requireForm(pure);
            if (!(computed instanceof ProductStrategy p) || !p.kind().equals("OPTIMIZED")) {
                throw new LinearQueryException(LinearQueryException.Reason.UNSUPPORTED, "strategy",
                        this + " needs the optimised strategy computed for this workload");
            }
            // An optimised strategy depends on W only through WᵀW: it is named by the Gram's hash.
            return requireFor(workload, computed);
        }

        @Override
        public boolean answersFromStoredStrategy() {
            return true;
        }

        @Override
        public boolean strategySharedByGram() {
            return true;
        }

        @Override
        boolean needsDenseGram(boolean productWorkload) {
            return !productWorkload;
        }

        @Override
        StoredStrategyRecipe recipe(Workload w, OptimizerOptions optimizer) {
            return new StoredStrategyRecipe(optimizer.canonical(), StrategyCost.optimized(w, optimizer),
                    StrategyCost.MINIMUM_ITERATIONS + " iterations on each optimised attribute",
                    control -> Strategies.optimized(w, optimizer, control));
        }
    };

    private final QueryBudget.Form form;
    private final String summary;

    LinearMechanism(QueryBudget.Form form, String summary) {
        this.form = form;
        this.summary = summary;
    }

    /** The budget form the mechanism takes. */
    public QueryBudget.Form form() {
        return form;
    }

    /** The catalogue's one-line summary. */
    public String summary() {
        return summary;
    }

    /**
     * The strategy a plan measures with, checked against the budget's form: built from the workload,
     * or the stored strategy {@code computed} for it (null: the noise goes on W·x directly).
     *
     * @throws LinearQueryException UNSUPPORTED for a budget form the mechanism does not take, a
     *     missing strategy, or a strategy built for another workload
     */
    @Nullable Strategy planStrategy(Workload workload, boolean pure, @Nullable Strategy computed) {
        requireForm(pure);
        return builtStrategy(workload);
    }

    /** The strategy built from the workload alone (identity unless the mechanism builds another). */
    Strategy builtStrategy(Workload workload) {
        return Strategies.identity(workload);
    }

    /** Noise on W·x directly, with no strategy: the statistic is the workload's answers. */
    public boolean measuresWorkload() {
        return false;
    }

    /** The noise (Laplace or Gaussian) is a parameter, defaulting to what the budget says. */
    public boolean noiseChosenByParam() {
        return false;
    }

    /** Answers from a stored public strategy, computed from the workload alone before the plan. */
    public boolean answersFromStoredStrategy() {
        return false;
    }

    /**
     * The stored strategy depends on the workload only through WᵀW: workloads of several callers share
     * it, so it is keyed by {@link Workload#gramHash()} and records nothing of one caller's workload.
     */
    public boolean strategySharedByGram() {
        return false;
    }

    /** The strategy approximates W (W ≈ B·L): the answers carry the residual's bias, reported. */
    public boolean reportsResidual() {
        return false;
    }

    /**
     * Whether a mechanism named so shares its stored strategy between workloads with one Gram (false for
     * a name that is not a linear mechanism's).
     */
    public static boolean strategySharedByGram(@Nullable String name) {
        for (LinearMechanism m : values()) {
            if (m.name().equals(name)) {
                return m.strategySharedByGram();
            }
        }
        return false;
    }

    /**
     * The mechanisms answering from a stored strategy, as a refusal lists them (in this order: the
     * served text's).
     */
    static final String WITH_STORED_STRATEGY = OPTIMIZED + " | " + LOW_RANK_MECHANISM;

    /** The mechanism of this name answering from a stored strategy, or null. */
    static @Nullable LinearMechanism withStoredStrategy(String name) {
        for (LinearMechanism m : values()) {
            if (m.name().equals(name) && m.answersFromStoredStrategy()) {
                return m;
            }
        }
        return null;
    }

    /** What the stored strategy was built for: the Gram's hash when shared by Gram, else the workload's. */
    String strategyBuiltFor(Workload workload) {
        return strategySharedByGram() ? workload.gramHash() : workload.hash();
    }

    /** The stored strategy needs WᵀW as a dense n × n matrix (on a product workload or not). */
    boolean needsDenseGram(boolean productWorkload) {
        throw new IllegalStateException(this + " has no stored strategy");
    }

    /** How the stored strategy is computed for this workload: its options, cost and computation. */
    StoredStrategyRecipe recipe(Workload w, OptimizerOptions optimizer) {
        throw new IllegalStateException(this + " has no stored strategy");
    }

    /**
     * The computation of a stored strategy.
     *
     * @param options the canonical options (part of the cache key)
     * @param minimumRun the smallest useful run, as a refusal names it
     */
    record StoredStrategyRecipe(String options, StrategyCost cost, String minimumRun,
            Function<OptimizationControl, Strategy> compute) {}

    /** A pure budget for a Laplace mechanism, ρ or (ε, δ) for a Gaussian one, either for one taking both. */
    void requireForm(boolean pure) {
        if (form == QueryBudget.Form.PURE_OR_GAUSSIAN) {
            return;
        }
        boolean wantPure = form == QueryBudget.Form.PURE_EPSILON;
        if (pure != wantPure) {
            throw new LinearQueryException(LinearQueryException.Reason.UNSUPPORTED, "budget", this + " takes "
                    + (wantPure ? "a pure epsilon" : "rho or (epsilon, delta)"));
        }
    }

    Strategy requireFor(Workload workload, Strategy strategy) {
        if (strategy.cells() != workload.cells() || !strategyBuiltFor(workload).equals(strategy.info().workloadHash())) {
            throw new LinearQueryException(LinearQueryException.Reason.UNSUPPORTED, "strategy",
                    "the strategy was computed for another workload");
        }
        return strategy;
    }
}
