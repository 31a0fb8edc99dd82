package io.privmat.mechanism.catalog;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.PrivacyArgumentException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The inverse of a quote (docs/accuracy/inverse-quote.md): the smallest budget at which a plan's own
 * public error statement meets a target. The error a quote states is a deterministic, non-increasing
 * function of the budget (the accuracy contract tests check the direction), so a bisection over the
 * budget finds the smallest value whose statement is at most the target — exactly where the statement
 * is EXACT, conservatively where it is a BOUND (the true error is then smaller still). Only public
 * parameters are read: this plans, it never releases.
 */
public final class InverseQuote {

    private InverseQuote() {}

    /** Significant digits of the budget returned (rounded up, so the target still holds). */
    static final int DIGITS = 4;
    /** The search stops when the bracket's ratio is below 1 + this. */
    static final double PRECISION = 1e-5;
    /** Smallest budget tried, as a fraction of the largest. */
    static final double FLOOR = 1e-12;

    /**
     * The accuracy asked for: the statement of a quote named by {@code quantity} (optional when the
     * metric names one statement), {@code metric} and {@code level} (null for a root-mean-square
     * figure), at most {@code value}.
     */
    public record Target(@Nullable String quantity, String metric, @Nullable Double level, double value) {

        public Target {
            if (!ErrorStatement.METRICS.contains(metric)) {
                throw PlanningException.invalid("target.metric", String.join(" | ", ErrorStatement.METRICS),
                        "target.metric must be one of " + String.join(" | ", ErrorStatement.METRICS));
            }
            if (!(value > 0) || !Double.isFinite(value)) {
                throw PlanningException.invalid("target.value", "(0, ∞)", "target.value must be a finite number > 0");
            }
            if (level != null && !(level > 0 && level < 1)) {
                throw PlanningException.invalid("target.level", "(0, 1), or absent for an RMS figure",
                        "target.level must be in (0, 1), or absent for a root-mean-square figure");
            }
        }

        boolean matches(ErrorStatement s) {
            return (quantity == null || quantity.equals(s.quantity())) && metric.equals(s.metric())
                    && (level == null ? s.level() == null : s.level() != null && Math.abs(level - s.level()) < 1e-9);
        }
    }

    /** The budget field searched: ε (with the request's δ, or alone for pure ε-DP) or ρ. */
    public enum Searched { EPSILON, RHO }

    /**
     * One mechanism's answer.
     *
     * @param budget the smallest budget meeting the target (null when none up to the maximum does)
     * @param plan the plan at that budget, or at the largest budget when unreachable
     * @param achieved the plan's statement matching the target
     * @param unreachable why no budget meets it, or null
     * @param smallest false when the request's {@link PlanLimit} cut the search short: the budget
     *     then meets the target (it is the smallest seen that does) but a smaller one may as well
     */
    public record Answer(String mechanism, Searched searched, @Nullable QueryBudget budget, Plan plan,
            ErrorStatement achieved, @Nullable String unreachable, boolean smallest) {

        public boolean reachable() {
            return unreachable == null;
        }
    }

    /** Most budgets tried upwards from the rounded bracket before its unrounded end is returned. */
    static final int ROUNDING_STEPS = 50;

    /** {@link #smallest(MechanismCatalog, String, String, BigDecimal, Map, PublicFacts, PublicArtifacts, Target,
     * PlanLimit)} without a limit. */
    public static Answer smallest(MechanismCatalog catalog, @Nullable String kind, @Nullable String mechanism,
            @Nullable BigDecimal delta,
            @Nullable RequestParams params, PublicFacts facts, PublicArtifacts artifacts, Target target) {
        return smallest(catalog, kind, mechanism, delta, params, facts, artifacts, target, PlanLimit.none());
    }

    /**
     * The smallest budget at which {@code mechanism}'s quote for {@code kind} meets {@code target}.
     *
     * @param delta the request's δ: kept fixed while ε is searched (mechanisms taking ε with δ); null
     *     searches ρ (Gaussian mechanisms on ZCDP datasets) or a pure ε
     * @param limit the plans and time the search may spend; when it runs out after the first plan the
     *     answer is the smallest budget seen to meet the target, marked not {@link Answer#smallest}
     * @throws PlanningException for a request that cannot be planned at the largest budget either, a
     *     budget field that does not fit the mechanism, or a target that its quote does not state
     * @throws PlanLimit.Exhausted when the limit allows not even the plan at the largest budget
     */
    public static Answer smallest(MechanismCatalog catalog, @Nullable String kind, @Nullable String mechanism,
            @Nullable BigDecimal delta, @Nullable RequestParams params, PublicFacts facts, PublicArtifacts artifacts,
            Target target, PlanLimit limit) {
        MechanismDefinition m = catalog.find(mechanism == null ? "" : mechanism.strip().toUpperCase(java.util.Locale.ROOT))
                .orElse(null);
        if (m == null) {
            // Refused by the catalogue with its own message (the mechanisms that answer the kind).
            catalog.plan(kind, mechanism, new QueryBudget(null, null, null), params, facts, artifacts);
            throw new IllegalStateException("unreachable");
        }
        Searched searched = searched(m, delta, facts);
        BigDecimal max = searched == Searched.RHO ? QueryBudget.MAX_RHO : m.maxEpsilon();
        Search s = new Search(catalog, kind, m.name(), searched, delta, params, facts, remembered(artifacts), target,
                limit);
        Plan top = s.plan(max); // planning errors that do not depend on the budget surface here
        ErrorStatement best = s.statement(top);
        if (best.value() > target.value()) {
            return new Answer(m.name(), searched, null, top, best, "at the largest budget (" + field(searched) + " = "
                    + max.toPlainString() + ") the stated " + best.metric() + " is " + best.value() + ", above the target "
                    + target.value(), true);
        }
        s.met(max, top);
        boolean cut = false;
        try {
            double floor = max.doubleValue() * FLOOR;
            double hi = max.doubleValue(); // meets the target
            double hiGap = Math.log(best.value() / target.value()); // ≤ 0
            double lo = hi / 16;
            double loGap = s.gap(lo);
            // Walk down in factors of 16 until the target fails; then close the bracket.
            while (lo > floor && loGap <= 0) {
                hi = lo;
                hiGap = loGap;
                lo = lo / 16;
                loGap = s.gap(lo);
            }
            if (lo > floor) {
                close(s, lo, loGap, hi, hiGap);
            }
        } catch (PlanLimit.Exhausted e) {
            cut = true;
        }
        // The bracket's upper end is the smallest budget seen to meet the target (s.met).
        BigDecimal found = null;
        Plan plan = null;
        if (!cut) {
            BigDecimal rounded = s.metValue.round(new MathContext(DIGITS, RoundingMode.CEILING));
            try {
                // Rounding up keeps the target (the error does not increase with the budget); check it all the same,
                // a bounded number of steps (a statement that broke the rule would otherwise walk up to the maximum).
                for (int step = 0; step < ROUNDING_STEPS && plan == null; step++) {
                    if (rounded.compareTo(max) >= 0) {
                        found = max;
                        plan = top;
                    } else if (s.gapAt(rounded) <= 0) {
                        found = rounded;
                        plan = s.lastPlan;
                    } else {
                        rounded = rounded.add(rounded.ulp()).round(new MathContext(DIGITS, RoundingMode.CEILING));
                    }
                }
            } catch (PlanLimit.Exhausted e) {
                cut = true;
            }
        }
        if (plan == null) {
            // Cut short, or no rounded budget met the target within the steps: the unrounded end does.
            found = s.metValue;
            plan = s.metPlan;
        }
        return new Answer(m.name(), searched, s.budget(found), plan, s.statement(plan), null, !cut);
    }

    /** The artifacts resolved once for all the plans of one search (a stored workload is read once). */
    static PublicArtifacts remembered(PublicArtifacts artifacts) {
        Map<String, PublicArtifacts.StoredWorkload> workloads = new java.util.HashMap<>();
        Map<String, byte[]> strategies = new java.util.HashMap<>();
        return new PublicArtifacts() {
            @Override
            public StoredWorkload workload(String id) {
                return workloads.computeIfAbsent(id, artifacts::workload);
            }

            @Override
            public byte[] strategy(StrategyTask task) {
                return strategies.computeIfAbsent(task.id(), k -> artifacts.strategy(task));
            }
        };
    }

    /**
     * Narrows (lo, hi] to the smallest budget meeting the target, to a relative precision of
     * {@link #PRECISION} (the smallest meeting budget tried is kept by {@link Search#met}): the Illinois variant of false position on log(error/target) against
     * log(budget), which a power law (error ∝ ρ^(−1/2), ∝ 1/ε) solves in a few plans, with a bisection
     * step whenever a budget is refused (gap +∞) or the bracket does not halve.
     *
     * @param loGap log(error/target) at lo, &gt; 0 (or +∞)
     * @param hiGap the same at hi, ≤ 0
     */
    private static void close(Search s, double lo, double loGap, double hi, double hiGap) {
        double a = Math.log(lo);
        double b = Math.log(hi);
        double ga = loGap;
        double gb = hiGap;
        int side = 0; // which end moved last: −1 the low, +1 the high
        for (int i = 0; i < 200 && b - a > Math.log1p(PRECISION); i++) {
            double width = b - a;
            double u = Double.isFinite(ga) && ga > gb ? b - gb * (b - a) / (gb - ga) : (a + b) / 2;
            // Keep the trial strictly inside, and bisect every third step so that the bracket always shrinks.
            if (!(u > a + width * 1e-3 && u < b - width * 1e-3) || i % 3 == 2) {
                u = (a + b) / 2;
            }
            double g = s.gap(Math.exp(u));
            if (g <= 0) {
                b = u;
                gb = g;
                if (side == 1) {
                    ga /= 2; // Illinois: the stale end's weight halves
                }
                side = 1;
            } else {
                a = u;
                ga = g;
                if (side == -1) {
                    gb /= 2;
                }
                side = -1;
            }
        }
    }

    /** Which field is searched for this mechanism, request and accounting. */
    static Searched searched(MechanismDefinition m, @Nullable BigDecimal delta, PublicFacts facts) {
        return switch (m.budgetForm()) {
            case PURE_EPSILON -> {
                if (delta != null) {
                    throw PlanningException.invalid("delta", "absent", m.name() + " is pure epsilon-DP: give no delta; "
                            + "the inverse quote searches epsilon");
                }
                yield Searched.EPSILON;
            }
            case APPROXIMATE -> {
                if (delta == null) {
                    throw PlanningException.invalid("delta", "(0, 0.01]", m.name() + " is (epsilon, delta)-DP: give "
                            + "delta; the inverse quote searches epsilon at that delta");
                }
                yield Searched.EPSILON;
            }
            case GAUSSIAN -> {
                if (delta != null) {
                    yield Searched.EPSILON;
                }
                if (facts.mode() != AccountingMode.ZCDP) {
                    throw PlanningException.invalid("delta", "(0, 0.01]", m.name() + " on a " + facts.mode()
                            + " dataset is calibrated to epsilon with delta: give delta; the inverse quote searches "
                            + "epsilon at that delta (rho alone is searched on ZCDP datasets)");
                }
                yield Searched.RHO;
            }
            case PURE_OR_GAUSSIAN -> Searched.EPSILON;
        };
    }

    private static String field(Searched s) {
        return s == Searched.RHO ? "rho" : "epsilon";
    }

    /** The plans of one mechanism at varying budgets, and the smallest budget seen to meet the target. */
    private static final class Search {

        private final MechanismCatalog catalog;
        private final @Nullable String kind;
        private final String mechanism;
        private final Searched searched;
        private final @Nullable BigDecimal delta;
        private final @Nullable RequestParams params;
        private final PublicFacts facts;
        private final PublicArtifacts artifacts;
        private final Target target;
        private final PlanLimit limit;
        /** The smallest budget seen to meet the target, and its plan (set once the largest budget meets it). */
        private BigDecimal metValue;
        private Plan metPlan;
        /** The plan of the last {@link #gapAt} that planned. */
        private Plan lastPlan;

        Search(MechanismCatalog catalog, @Nullable String kind, String mechanism, Searched searched,
                @Nullable BigDecimal delta, @Nullable RequestParams params, PublicFacts facts, PublicArtifacts artifacts,
                Target target, PlanLimit limit) {
            this.catalog = catalog;
            this.kind = kind;
            this.mechanism = mechanism;
            this.searched = searched;
            this.delta = delta;
            this.params = params;
            this.facts = facts;
            this.artifacts = artifacts;
            this.target = target;
            this.limit = limit;
        }

        QueryBudget budget(BigDecimal value) {
            return searched == Searched.RHO ? new QueryBudget(null, null, value) : new QueryBudget(value, delta, null);
        }

        Plan plan(BigDecimal value) {
            limit.spend();
            return catalog.plan(kind, mechanism, budget(value), params, facts, artifacts);
        }

        /** Records a budget that meets the target, when it is the smallest seen. */
        void met(BigDecimal value, Plan plan) {
            if (metValue == null || value.compareTo(metValue) < 0) {
                metValue = value;
                metPlan = plan;
            }
        }

        ErrorStatement statement(Plan plan) {
            List<ErrorStatement> stated = catalog.expectedError(plan);
            List<ErrorStatement> matching = stated.stream().filter(target::matches).toList();
            if (matching.size() == 1 || !matching.isEmpty() && target.quantity() != null) {
                return matching.get(0);
            }
            String available = String.join("; ", stated.stream().map(e -> e.quantity() + " " + e.metric() + " at "
                    + (e.level() == null ? "RMS (no level)" : "level " + e.level())).toList());
            throw PlanningException.invalid("target", available, matching.isEmpty()
                    ? "the quote of " + mechanism + " states no " + target.metric() + " error"
                    + (target.quantity() == null ? "" : " of " + target.quantity()) + " at "
                    + (target.level() == null ? "RMS" : "level " + target.level()) + "; it states: " + available
                    : "the quote of " + mechanism + " states several " + target.metric() + " errors: name "
                    + "target.quantity, one of: " + available);
        }

        /**
         * log(stated error / target) at this budget: ≤ 0 when it meets the target (then remembered by
         * {@link #met}); +∞ for a budget the mechanism refuses (e.g. a graph too small for the sketch
         * at this ε, or a privacy loss too small for its calibration) or an error of 0 missing.
         *
         * @throws PlanLimit.Exhausted when the request may plan no more
         */
        double gap(double value) {
            return gapAt(new BigDecimal(value).round(new MathContext(17, RoundingMode.HALF_EVEN)));
        }

        /** {@link #gap} at exactly this budget. */
        double gapAt(BigDecimal b) {
            if (b.signum() <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            try {
                Plan plan = plan(b);
                lastPlan = plan;
                double error = statement(plan).value();
                if (error <= target.value()) {
                    met(b, plan);
                    return Math.min(0, Math.log(error / target.value()));
                }
                return Math.max(Math.log(error / target.value()), Double.MIN_NORMAL);
            } catch (PlanningException | PrivacyArgumentException refused) {
                return Double.POSITIVE_INFINITY;
            }
        }
    }
}
