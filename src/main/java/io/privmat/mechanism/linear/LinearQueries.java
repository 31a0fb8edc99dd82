package io.privmat.mechanism.linear;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.hashing.Sha256;
import io.privmat.json.ProblemProperties;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.ComputeBudget;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.HistogramDomain;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.MechanismFamily;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.catalog.WorkloadParam;
import io.privmat.mechanism.catalog.WorkloadSpec;
import io.privmat.privacy.PureDp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * LINEAR_QUERIES on HISTOGRAM datasets: one catalogue value per {@link LinearMechanism}
 * (docs/mechanisms/linear-queries.md). Every value releases y = A·x + z for a public strategy A
 * built from the workload alone (A = W when the noise goes on W·x) and post-processes y into x̂ and W·x̂.
 *
 * <p><b>Privacy.</b> One record changes x by ±e_j (ADD_REMOVE) or e_k − e_j (REPLACE_ONE), so A·x
 * moves by at most {@link Sensitivities#linearL1} in L1 (largest column L1 norm c₁, 2c₁ replacing)
 * and {@link Sensitivities#linearL2} in L2 (c₂; √2·c₂ when AᵀA ≥ 0 entrywise, else 2c₂ replacing).
 * Laplace noise calibrated to the L1 value is pure ε-DP; Gaussian noise to the L2 value ρ-zCDP (or
 * (ε, δ) by the analytic calibration). The strategy is a deterministic function of the public
 * workload and options, computed (and cached) by the service from public values only — so its cost
 * in privacy is nothing — and the plan is rebuilt from the same cached bytes, giving the same loss.
 *
 * <p>Public artifacts (a CUSTOM workload's matrix, an optimised strategy) come in through
 * {@link PublicArtifacts}; the declarations used by the contract tests ({@link #sensitivity},
 * {@link #statistic}, {@link #extremalChanges}) resolve them {@link PublicArtifacts#inline()}.
 */
public final class LinearQueries extends Described {

    /**
     * Optimised strategies (shared by Gram) whose largest optimised factor has at most this many values (a CUSTOM or
     * RANGES workload: at most this many cells) are computed within the request; larger ones in the
     * background (409 strategy-not-ready until done).
     */
    public static final int INLINE_OPTIMIZED_MAX_ATTRIBUTE = 256;
    /** Low-Rank strategies (keyed by the workload) on at most this many cells are computed within the request. */
    public static final int INLINE_LOW_RANK_MAX_CELLS = 64;

    private final LinearMechanism mechanism;

    /** The catalogue's LINEAR_QUERIES values: one per {@link LinearMechanism}, in its declaration order. */
    public static final class Family implements MechanismFamily {

        @Override
        public List<MechanismDefinition> definitions() {
            return Arrays.stream(LinearMechanism.values()).<MechanismDefinition>map(LinearQueries::new).toList();
        }
    }

    LinearQueries(LinearMechanism mechanism) {
        super(mechanism.name(), mechanism.summary(), EnumSet.of(QueryKind.LINEAR_QUERIES),
                EnumSet.of(DataShape.HISTOGRAM), BOTH, mechanism.form(), QueryBudget.MAX_EPSILON, Input.HISTOGRAM,
                params(mechanism));
        this.mechanism = mechanism;
    }

    static final String WORKLOAD_DESCRIPTION = "the queries: {\"type\": IDENTITY | PREFIX | ALL_RANGE | RANGES | "
            + "MARGINALS | CUSTOM, …} (schema LinearWorkload)";

    private static List<Param> params(LinearMechanism m) {
        List<Param> out = new ArrayList<>();
        out.add(Param.workload("workload", WORKLOAD_DESCRIPTION));
        if (m.noiseChosenByParam()) {
            out.add(new Param("noise", Param.Type.ENUM, null, null, false, null, List.of("LAPLACE", "GAUSSIAN"),
                    "LAPLACE (epsilon alone) or GAUSSIAN (rho, or epsilon with delta); default: as the budget "
                            + "says. Stored plans hold it."));
        }
        return out;
    }

    public LinearMechanism mechanism() {
        return mechanism;
    }

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        // Noise on W·x: one-way marginals, whose L1 sensitivity is attained replacing a record too.
        RequestParams workload = RequestParams.of("type", // ordered: examples are compared as text
                mechanism.measuresWorkload() ? "MARGINALS" : "ALL_RANGE");
        if (mechanism.measuresWorkload()) {
            workload = workload.with("k", 1);
        }
        return RequestParams.of("workload", workload); // a noise parameter: the noise follows the budget
    }

    // ---- what the plan is made of ----

    /** The workload, the strategy and the validated parameters with everything resolved. */
    record Resolved(Workload workload, @Nullable Strategy strategy, @Nullable String strategyKey, boolean laplace,
            Params params) {}

    private Resolved resolve(Params params, PublicFacts facts, PublicArtifacts artifacts, @Nullable QueryBudget budget) {
        HistogramDomain domain = facts.domain();
        if (domain == null) {
            throw new PlanningException(PlanningException.Reason.WRONG_DATASET_KIND, name() + " needs a HISTOGRAM "
                    + "dataset.", Map.of());
        }
        WorkloadSpec canonical = params.optionalWorkload("workload");
        if (canonical == null) {
            throw PlanningException.invalid("params.workload", WorkloadParam.ALLOWED, name()
                    + " needs params.workload: " + WORKLOAD_DESCRIPTION);
        }
        WorkloadBuilder.Built built = WorkloadBuilder.build(canonical, domain, artifacts);
        Params resolved = params.with("workload", built.canonical());
        boolean laplace = mechanism.form() == QueryBudget.Form.PURE_EPSILON;
        if (mechanism.noiseChosenByParam()) {
            String given = params.has("noise") ? params.name("noise") : null;
            String byBudget = budget == null ? null : budget.isPureEpsilon() ? "LAPLACE" : "GAUSSIAN";
            if (given != null && byBudget != null && !given.equals(byBudget)) {
                throw PlanningException.invalid("params.noise", byBudget, "params.noise " + given + " does not "
                        + "match the budget: LAPLACE takes epsilon alone, GAUSSIAN rho or epsilon with delta");
            }
            String noise = given != null ? given : byBudget != null ? byBudget : "GAUSSIAN";
            resolved = resolved.with("noise", noise);
            laplace = noise.equals("LAPLACE");
        }
        Workload w = built.workload();
        Strategy strategy = null;
        String key = null;
        if (mechanism.answersFromStoredStrategy()) {
            PublicArtifacts.StrategyTask task = strategyTask(mechanism, w, artifacts.strategyBudget());
            key = task.id();
            try {
                strategy = StrategyCodec.decode(artifacts.strategy(task));
            } catch (LinearQueryException e) {
                throw problem(e);
            }
        }
        return new Resolved(w, strategy, key, laplace, resolved);
    }

    /**
     * The computation of the stored public strategy a plan needs ({@link
     * LinearMechanism#answersFromStoredStrategy}), after the checks that can be made before computing
     * (422 when over a limit): sizes, and its cost from public sizes ({@link StrategyCost}) against the
     * budget — an optimisation is capped at the budget's operations (the cap is part of its key), so
     * only its smallest useful run must fit.
     */
    static PublicArtifacts.StrategyTask strategyTask(LinearMechanism mechanism, Workload w, ComputeBudget budget) {
        boolean product = switch (w.kind()) {
            case "IDENTITY", "PREFIX", "ALL_RANGE", "MARGINALS", "PRODUCT" -> true;
            default -> false;
        };
        int n = w.cells();
        if (mechanism.needsDenseGram(product) && n > LinearLimits.MAX_DENSE_CELLS) {
            throw problem(new LinearQueryException(LinearQueryException.Reason.TOO_LARGE, "workload", mechanism
                    + (product ? "" : " on a " + w.kind() + " workload") + " needs WᵀW as a dense n × n matrix; n is "
                    + n + ", above the limit of " + LinearLimits.MAX_DENSE_CELLS));
        }
        OptimizerOptions optimizer = Double.isInfinite(budget.maxFlops()) ? OptimizerOptions.defaults()
                : OptimizerOptions.defaults().withMaxWork(budget.maxFlops());
        LinearMechanism.StoredStrategyRecipe recipe = mechanism.recipe(w, optimizer);
        String options = recipe.options();
        StrategyCost cost = recipe.cost();
        if (!cost.fits(budget)) {
            throw overBudget(mechanism, recipe, budget);
        }
        String cacheKey = Strategies.cacheKey(w, mechanism, options);
        // A strategy shared by Gram is shared by the workloads of several callers, so nothing of the
        // first caller's own workload (its hash, its kind) is recorded.
        boolean gram = mechanism.strategySharedByGram();
        boolean small;
        if (gram) {
            int largest = 0;
            for (int size : w.domain().sizes()) {
                largest = Math.max(largest, size);
            }
            small = (product ? largest : n) <= INLINE_OPTIMIZED_MAX_ATTRIBUTE;
        } else {
            small = n <= INLINE_LOW_RANK_MAX_CELLS;
        }
        PublicArtifacts.TaskInfo info = new PublicArtifacts.TaskInfo(mechanism.name(), gram ? w.gramHash() : null,
                gram ? null : w.hash(), gram ? null : w.kind(), n, w.queries(), options,
                Double.isInfinite(budget.maxFlops()) ? null : budget.seconds(cost.flops()), cost.bytes());
        return new PublicArtifacts.StrategyTask(Sha256.hex(cacheKey), cacheKey, mechanism.name(), small, info,
                control -> StrategyCodec.encode(recipe.compute().apply(control)));
    }

    /** 422: the smallest useful run, or the memory, is over the budget; the limits are in the detail. */
    private static PlanningException overBudget(LinearMechanism mechanism, LinearMechanism.StoredStrategyRecipe recipe,
            ComputeBudget budget) {
        StrategyCost cost = recipe.cost();
        double needed = budget.seconds(cost.minimumFlops());
        double limit = budget.seconds(budget.maxFlops());
        ProblemProperties p = ProblemProperties.of("parameter", "params.workload", "reason", "TOO_COSTLY")
                .with("estimatedSeconds", needed).with("limitSeconds", limit).with("estimatedBytes", cost.bytes())
                .with("limitBytes", budget.maxBytes());
        List<String> over = new ArrayList<>();
        if (cost.minimumFlops() > budget.maxFlops()) {
            over.add(String.format(java.util.Locale.ROOT, "at least %.0f s of computation at the reference rate (%s), "
                    + "over the limit of %.0f s", needed, recipe.minimumRun(), limit));
        }
        if (cost.bytes() > budget.maxBytes()) {
            over.add("about " + cost.bytes() / (1 << 20) + " MiB of memory, over the limit of "
                    + budget.maxBytes() / (1 << 20) + " MiB");
        }
        return new PlanningException(PlanningException.Reason.WORKLOAD_TOO_LARGE, mechanism + "'s strategy for this "
                + "workload needs " + String.join(" and ", over) + " per computation; nothing was queued or charged. "
                + "Use fewer cells per attribute, or HIERARCHICAL.", p);
    }

    /**
     * The strategy task of a LINEAR_QUERIES request for a value answering from a stored strategy, for
     * a service that computes strategies ahead of a query: the request's mechanism and raw params on a
     * dataset's public facts (nothing is planned or charged).
     *
     * @throws PlanningException 400 for another mechanism or invalid params, 422 over a size limit
     */
    public static PublicArtifacts.StrategyTask strategyTask(@Nullable String mechanismName,
            @Nullable RequestParams rawParams, PublicFacts facts, PublicArtifacts artifacts) {
        String allowed = LinearMechanism.WITH_STORED_STRATEGY;
        String m = mechanismName == null ? "" : mechanismName.strip().toUpperCase(java.util.Locale.ROOT);
        LinearMechanism mechanism = LinearMechanism.withStoredStrategy(m);
        if (mechanism == null) {
            throw PlanningException.invalid("mechanism", allowed, "only " + allowed + " have a strategy to compute");
        }
        if (facts.domain() == null) {
            throw new PlanningException(PlanningException.Reason.WRONG_DATASET_KIND, "Strategies are computed for "
                    + "HISTOGRAM datasets; this one is a " + facts.shape() + ".", Map.of());
        }
        LinearQueries definition = new LinearQueries(mechanism);
        Params params = Params.parse(m, definition.params(), rawParams);
        WorkloadSpec canonical = params.optionalWorkload("workload");
        if (canonical == null) {
            throw PlanningException.invalid("params.workload", WorkloadParam.ALLOWED, m + " needs params.workload");
        }
        return strategyTask(definition.mechanism, WorkloadBuilder.build(canonical, facts.domain(), artifacts).workload(),
                artifacts.strategyBudget());
    }


    /** A refused workload or strategy as a planning problem: TOO_LARGE → 422, the others → 400. */
    public static PlanningException problem(LinearQueryException e) {
        String field = "params." + e.field();
        if (e.reason() == LinearQueryException.Reason.TOO_LARGE) {
            return new PlanningException(PlanningException.Reason.WORKLOAD_TOO_LARGE, e.getMessage(),
                    Map.of("parameter", field, "reason", e.reason().name()));
        }
        ProblemProperties p = ProblemProperties.of("parameter", field, "allowedRange",
                e.reason().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " refused")
                .with("reason", e.reason().name());
        return new PlanningException(PlanningException.Reason.INVALID_PARAMETER, field + ": " + e.getMessage(), p);
    }

    private static LinearBudget linearBudget(QueryBudget budget, boolean laplace) {
        if (laplace) {
            return new LinearBudget.Pure(budget.epsilonDown());
        }
        return budget.isRho() ? new LinearBudget.Rho(budget.rhoDown())
                : new LinearBudget.EpsilonDelta(budget.epsilonDown(), budget.deltaDown());
    }

    // ---- the declarations ----

    /** The statistic's sensitivity: of A·x (W·x for noise on W·x), in L1 for Laplace noise, L2 for Gaussian. */
    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        Resolved r = resolve(params, facts, PublicArtifacts.inline(), null);
        NeighbouringRelation relation = facts.relation();
        if (r.laplace()) {
            double c1 = r.strategy() == null && mechanism.measuresWorkload() ? r.workload().maxColumnL1()
                    : strategy(r).maxColumnL1();
            return new Sensitivity(mechanism.measuresWorkload() ? "W·x" : "A·x", "L1",
                    Sensitivities.linearL1(c1, relation), "one record moves x by ±e_j (A·x by the column A·e_j, L1 ≤ "
                            + "c₁ = max column L1 norm) or by e_k − e_j when replaced (≤ 2c₁)");
        }
        Strategy s = strategy(r);
        return new Sensitivity("A·x", "L2", Sensitivities.linearL2(s.maxColumnL2(), s.gramNonNegative(), relation),
                "one record moves x by ±e_j (A·x by ≤ c₂ = max column L2 norm) or by e_k − e_j when replaced "
                        + "(‖Ae_k − Ae_j‖² ≤ 2c₂² when AᵀA ≥ 0 entrywise, else ≤ 4c₂²)");
    }

    /** The strategy a resolved plan measures with (identity and tree strategies are built from the workload). */
    private Strategy strategy(Resolved r) {
        if (r.strategy() != null) {
            return r.strategy();
        }
        return mechanism.builtStrategy(r.workload());
    }

    /** A·x (or W·x for noise on W·x) of the histogram: what the noise is added to. */
    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        Resolved r = resolve(params, facts, PublicArtifacts.inline(), null);
        double[] x = data.histogram();
        return mechanism.measuresWorkload() ? r.workload().answer(x) : strategy(r).measure(x);
    }

    /**
     * A record added to the cell whose column of A (W) has the largest norm; replacing, the record
     * moved between the two cells whose columns differ most (searched over every pair up to 256
     * cells; from the largest column otherwise).
     */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        Resolved r = resolve(params, facts, PublicArtifacts.inline(), null);
        int n = facts.cols();
        boolean l1 = r.laplace();
        java.util.function.IntFunction<double[]> column = j -> {
            double[] e = new double[n];
            e[j] = 1;
            return mechanism.measuresWorkload() ? r.workload().answer(e) : strategy(r).measure(e);
        };
        double[][] columns = n <= 256 ? new double[n][] : null;
        int best = 0;
        double bestNorm = -1;
        for (int j = 0; j < n; j++) {
            double[] c = column.apply(j);
            if (columns != null) {
                columns[j] = c;
            }
            double norm = norm(c, null, l1);
            if (norm > bestNorm) {
                bestNorm = norm;
                best = j;
            }
        }
        if (facts.relation() == NeighbouringRelation.ADD_REMOVE) {
            return List.of(new NeighbouringChange.AddedRecord(best));
        }
        int from = best;
        int to = best == 0 ? Math.min(1, n - 1) : 0;
        double far = -1;
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < n; k++) {
                if (columns == null && j != best || j == k) {
                    continue;
                }
                double[] a = columns == null ? column.apply(j) : columns[j];
                double d = norm(a, columns == null ? column.apply(k) : columns[k], l1);
                if (d > far) {
                    far = d;
                    from = j;
                    to = k;
                }
            }
        }
        return List.of(new NeighbouringChange.MovedRecord(from, to));
    }

    private static double norm(double[] a, double @Nullable [] b, boolean l1) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double v = b == null ? a[i] : a[i] - b[i];
            s += l1 ? Math.abs(v) : v * v;
        }
        return l1 ? s : Math.sqrt(s);
    }

    // ---- the plan ----

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        return plan(kind, budget, params, facts, PublicArtifacts.inline());
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts, PublicArtifacts artifacts) {
        Resolved r = resolve(params, facts, artifacts, budget);
        LinearQueryPlan lp;
        try {
            lp = LinearQueryPlan.of(r.workload(), mechanism, linearBudget(budget, r.laplace()), facts.relation(),
                    r.strategy());
        } catch (LinearQueryException e) {
            throw problem(e);
        }
        ExpectedError error = lp.expectedError();
        if (!(Double.isFinite(error.totalSquaredError()) && Double.isFinite(error.sensitivity())
                && Double.isFinite(lp.noiseStandardDeviation()))) {
            // Entries so large (|w| ≳ 10¹⁵⁴) that the error arithmetic overflows: refused from the public
            // workload before any charge (was an unchecked 500).
            throw PlanningException.invalid("params.workload", "entries whose expected error is finite", "The "
                    + "workload's entries are too large: its expected error overflows a double. Scale the workload down.");
        }
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        if (r.laplace()) {
            noise.put(NoiseFacts.DISTRIBUTION, "discrete Laplace on a grid, on "
                    + (lp.strategy() == null ? "W·x" : "A·x"));
            noise.put(NoiseFacts.SCALE, lp.laplaceScale());
            noise.put(NoiseFacts.L1_SENSITIVITY, error.sensitivity());
        } else {
            noise.put(NoiseFacts.DISTRIBUTION, "discrete Gaussian on a grid, on A·x");
            noise.put(NoiseFacts.SIGMA, lp.gaussianSigma());
            noise.put(NoiseFacts.L2_SENSITIVITY, error.sensitivity());
        }
        noise.put(NoiseFacts.GRANULARITY, lp.granularity());
        noise.put(NoiseFacts.NOISE_VARIANCE, error.noiseVariance());
        noise.put(NoiseFacts.QUERIES, r.workload().queries());
        noise.put(NoiseFacts.STRATEGY_ROWS, error.noiseDimension());
        noise.put(NoiseFacts.STRATEGY_METHOD, lp.strategy() == null ? "WORKLOAD" : lp.strategy().info().method());
        if (r.strategyKey() != null) {
            noise.put(NoiseFacts.STRATEGY_KEY, r.strategyKey());
        }
        noise.put(NoiseFacts.EXPECTED_RMSE_PER_QUERY, error.perQueryRmse());
        noise.put(NoiseFacts.EXPECTED_TOTAL_SQUARED_ERROR, error.totalSquaredError());
        double maxSd = 0;
        for (double sd : lp.standardDeviations()) {
            maxSd = Math.max(maxSd, sd);
        }
        noise.put(NoiseFacts.MAX_QUERY_STANDARD_DEVIATION, maxSd);
        if (mechanism.reportsResidual()) {
            noise.put(NoiseFacts.RESIDUAL_FROBENIUS, error.residualFrobenius());
        }
        PrivacyMap privacy = r.laplace() ? PrivacyMap.of(new PureDp(budget.epsilon()))
                : PrivacyMap.calibrated(lp.privacyLoss(), budget);
        Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
        if (lp.strategy() != null) {
            meta.put(ReleaseMeta.NOISE_VARIANCE, error.noiseVariance());
            meta.put(ReleaseMeta.DOMAIN, domainText(facts.domain()));
            meta.put(ReleaseMeta.STRATEGY_METHOD, lp.strategy().info().method());
            if (r.strategyKey() != null) {
                meta.put(ReleaseMeta.STRATEGY_KEY, r.strategyKey());
            }
            meta.put(ReleaseMeta.BIASED, lp.strategy() instanceof LowRankStrategy l && !l.fallback());
        }
        Facts estimateMeta = meta.build();
        return new Plan(spec(kind, budget, r.params(), facts), privacy, noise, Input.HISTOGRAM, (data, random) -> {
            LinearQueryRelease release = lp.release(data.histogram(), random);
            return new LinearQueriesRelease(release, estimateMeta);
        });
    }

    /**
     * Per query: the exact RMSE of the answers ({@link #statements}), the residual of a strategy
     * approximating W when it is biased, and the largest per-answer half-width at 95% — the
     * Gaussian quantile (exact) for Gaussian noise, the discrete Laplace quantile (exact) for noise on
     * W·x, and Chebyshev's sd/√α (a bound for any noise distribution) for Laplace noise propagated
     * through a strategy, where an answer sums several Laplace variables.
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        Facts n = plan.noise();
        List<ErrorStatement> out = new ArrayList<>();
        out.add(new ErrorStatement("answers", "rmsePerQuery", n.get(NoiseFacts.EXPECTED_RMSE_PER_QUERY),
                null, ErrorBasis.EXACT, "√(E‖Wx̂ − Wx‖²/m): the noise variance propagated exactly through the strategy"));
        if (residual(n) > 0) {
            out.add(new ErrorStatement("answers (strategy residual)", "frobeniusNorm", residual(n), null,
                    ErrorBasis.EXACT, "‖W − BL‖_F: the answers also carry the bias (BL − W)x, at most "
                    + "‖W − BL‖₂·‖x‖₂, not in the RMSE"));
        }
        double maxSd = n.get(NoiseFacts.MAX_QUERY_STANDARD_DEVIATION);
        double level = ResultAccuracy.DEFAULT_LEVEL;
        out.add(new ErrorStatement("answers", "absPerAnswer", halfWidth(n, maxSd, level), level, basis(n),
                halfWidthDerivation(n) + ", for the answer with the largest standard deviation"));
        return out;
    }

    /** Each answer ± its half-width at {@code level} (see {@link #expectedError}); answers may be any sign. */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        LinearQueryRelease r = ((LinearQueriesRelease) release).result();
        double[] a = r.answers();
        double[] sd = r.standardDeviations();
        double[] lo = new double[a.length];
        double[] hi = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            double half = halfWidth(plan.noise(), sd[sd.length == a.length ? i : 0], level);
            lo[i] = a[i] - half;
            hi[i] = a[i] + half;
        }
        String note = "each interval holds on its own at the level (" + halfWidthDerivation(plan.noise()) + ")"
                + (residual(plan.noise()) > 0
                        ? "; the low-rank strategy's bias (BL − W)x is not covered" : "");
        return new ResultAccuracy(level, List.of(new IntervalSet("answers", basis(plan.noise()), level, a.clone(), lo,
                hi, "none")), List.of(), note);
    }

    /** The Low-Rank factorisation's ‖W − BL‖_F, 0 for the other strategies. */
    private static double residual(Facts noise) {
        Double r = noise.find(NoiseFacts.RESIDUAL_FROBENIUS);
        return r == null ? 0 : r;
    }

    private static boolean laplace(Facts noise) {
        return noise.has(NoiseFacts.SCALE);
    }

    private static boolean onWorkload(Facts noise) {
        return "WORKLOAD".equals(noise.find(NoiseFacts.STRATEGY_METHOD));
    }

    private static ErrorBasis basis(Facts noise) {
        return !laplace(noise) || onWorkload(noise) ? ErrorBasis.EXACT : ErrorBasis.BOUND;
    }

    private static double halfWidth(Facts noise, double sd, double level) {
        double g = noise.get(NoiseFacts.GRANULARITY);
        if (!laplace(noise)) {
            return Accuracies.gaussianHalfWidth(sd, g, level);
        }
        if (onWorkload(noise)) {
            return Accuracies.laplaceHalfWidth(noise.get(NoiseFacts.SCALE), g, level);
        }
        return sd / Math.sqrt(Accuracies.alpha(level));
    }

    private static String halfWidthDerivation(Facts noise) {
        if (!laplace(noise)) {
            return "z_{α/2}·sd + g/2: each answer is a fixed linear combination of Gaussian noise; the grid rounding of "
                    + "the measured entries (≤ g/2 each, g ≈ σ·2⁻¹²) is negligible against it";
        }
        return onWorkload(noise) ? "the discrete Laplace quantile of each answer's own noise, plus g/2"
                : "Chebyshev: sd/√α, valid for the sum of Laplace variables each answer carries";
    }

    /** A histogram domain as text, e.g. {@code age:16,region:8}. */
    public static String domainText(HistogramDomain domain) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < domain.names().size(); i++) {
            b.append(i == 0 ? "" : ",").append(domain.names().get(i)).append(':').append(domain.sizes().get(i));
        }
        return b.toString();
    }

    /**
     * The statements of a linear-query plan's {@link ExpectedError}: the
     * exact per-query RMSE of the answers (and, for a low-rank strategy, the residual ‖W − BL‖_F whose
     * data-dependent bias it leaves out), for a catalogue value wrapping those strategies.
     */
    public static List<ErrorStatement> statements(ExpectedError e) {
        ErrorStatement rmse = new ErrorStatement("answers", "rmsePerQuery", e.perQueryRmse(), null, ErrorBasis.EXACT,
                "√(E‖Wx̂ − Wx‖²/m) from the noise variance " + e.noiseVariance() + " propagated exactly through the "
                + "strategy (" + e.sensitivityNorm() + " sensitivity " + e.sensitivity() + ")");
        if (e.residualFrobenius() == 0) {
            return List.of(rmse);
        }
        return List.of(rmse, new ErrorStatement("answers (strategy residual)", "frobeniusNorm",
                e.residualFrobenius(), null, ErrorBasis.EXACT, "‖W − BL‖_F: the answers also carry the bias "
                + "(BL − W)x, at most ‖W − BL‖₂·‖x‖₂, not in the RMSE"));
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.STRATEGY_METHOD.note("LINEAR_QUERIES: the strategy (IDENTITY, HIERARCHICAL, "
                    + "OPTIMIZED/CONVEX, LOW_RANK, …; WORKLOAD for LAPLACE_WORKLOAD)"),
            NoiseFacts.STRATEGY_KEY.note("OPTIMIZED and LOW_RANK_MECHANISM: the public strategy's id (GET "
                    + "/v1/strategies/{key})"),
            NoiseFacts.RESIDUAL_FROBENIUS.note("LOW_RANK_MECHANISM: ‖W − BL‖_F of its factorisation; the "
                    + "answers also carry the data-dependent bias (BL − W)x, at most ‖W − BL‖_F·‖x‖₂, not part "
                    + "of the expected error"),
            ReleaseMeta.STRATEGY_METHOD.note("histogram estimates: the strategy the estimate was made with "
                    + "(IDENTITY, HIERARCHICAL, OPTIMIZED/…, LOW_RANK)"),
            ReleaseMeta.STRATEGY_KEY.note("histogram estimates of OPTIMIZED and LOW_RANK_MECHANISM: the public "
                    + "strategy's id (GET /v1/strategies/{key})"));
    }
}
