package io.privmat.query;

import io.privmat.api.PrivmatException;
import io.privmat.api.ProblemType;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetStatus;
import io.privmat.dataset.Neighbouring;
import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.PrivacyLoss;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Validates a query request and plans it: the mechanism, its noise and its exact cost, from the
 * dataset's public parameters (shape, row bound, neighbouring relation, accounting mode) and the
 * request only. Deterministic: the job handler re-plans from the stored parameters and gets the
 * same mechanism and loss that was charged.
 */
@Component
public class QueryPlanner {

    static final BigDecimal MAX_EPSILON = BigDecimal.valueOf(100);
    static final BigDecimal MAX_DELTA = new BigDecimal("0.01");
    static final BigDecimal MAX_RHO = BigDecimal.valueOf(100);

    /**
     * A plan plus what runs it: the release function for vector statistics (COLUMN_SUMS), or the
     * covariance specification (COVARIANCE, PCA).
     */
    public record Planned(QueryPlan plan, @Nullable BiFunction<double[], NoiseSource, double[]> release,
            @Nullable CovarianceSpec covariance, @Nullable SketchSpec sketch, @Nullable LowRankSpec lowRank) {

        Planned(QueryPlan plan, @Nullable BiFunction<double[], NoiseSource, double[]> release,
                @Nullable CovarianceSpec covariance, @Nullable SketchSpec sketch) {
            this(plan, release, covariance, sketch, null);
        }

        Planned(QueryPlan plan, LowRankSpec lowRank) {
            this(plan, null, null, null, lowRank);
        }

        Planned(QueryPlan plan, BiFunction<double[], NoiseSource, double[]> release) {
            this(plan, release, null, null);
        }

        Planned(QueryPlan plan, @Nullable BiFunction<double[], NoiseSource, double[]> release,
                CovarianceSpec covariance) {
            this(plan, release, covariance, null);
        }
    }

    public Planned plan(Dataset dataset, QueryRequest request) {
        QueryKind kind = parseKind(request.kind());
        String mechanism = parseMechanism(kind, request.mechanism());
        if (dataset.status() != DatasetStatus.READY || dataset.cols() == null) {
            throw new PrivmatException(ProblemType.DATASET_NOT_READY,
                    "Dataset " + dataset.id() + " has no data yet; upload it first.", Map.of());
        }
        AccountingMode mode = dataset.budget().mode();
        if (kind == QueryKind.SKETCH) {
            return SketchPlanner.plan(mechanism, dataset, request, mode);
        }
        if (dataset.kind() != DatasetKind.MATRIX) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND,
                    kind + " needs a MATRIX dataset; this one is a " + dataset.kind() + ".", Map.of());
        }
        if (kind == QueryKind.LOW_RANK || kind == QueryKind.TOP_SINGULAR_VECTORS) {
            return LowRankPlanner.plan(kind, mechanism, dataset, request, mode);
        }
        if (kind != QueryKind.COLUMN_SUMS) {
            return CovariancePlanner.plan(kind, mechanism, dataset, request, mode);
        }
        if (request.params() != null && !request.params().isEmpty()) {
            throw PrivmatException.invalidParameter("params." + request.params().keySet().iterator().next(), "none",
                    kind + " takes no params");
        }
        BigDecimal epsilon = request.epsilon();
        BigDecimal delta = request.delta();
        BigDecimal rho = request.rho();
        checkRanges(request);
        Map<String, Object> parameters = new TreeMap<>();
        parameters.put("kind", kind.name());
        parameters.put("mechanism", mechanism);
        NeighbouringRelation relation = relation(dataset);
        int d = Math.toIntExact(dataset.cols());
        double bound = dataset.rowNormBound();
        Map<String, Object> noise = new LinkedHashMap<>();
        if (mechanism.equals("GAUSSIAN")) {
            double sensitivity = Sensitivities.columnSumsL2(bound, relation);
            GaussianBudget budget = gaussianBudget(mechanism, request, mode, parameters);
            GaussianVectorMechanism m = budget.rho() != null
                    ? GaussianVectorMechanism.forRho(sensitivity, Decimals.toDoubleDown(budget.rho()), d)
                    : GaussianVectorMechanism.forApproxDp(sensitivity, Decimals.toDoubleDown(epsilon),
                            Decimals.toDoubleDown(delta), d);
            // BASIC charges the (ε, δ) the Gaussian was calibrated to; ZCDP its exact ρ.
            PrivacyLoss charged = mode == AccountingMode.BASIC ? new ApproxDp(epsilon, delta) : m.privacyLoss();
            noise.put("distribution", "discrete Gaussian on a grid");
            noise.put("sigma", m.sigma());
            noise.put("granularity", m.granularity());
            noise.put("l2Sensitivity", sensitivity);
            return new Planned(new QueryPlan(kind.name(), mechanism, parameters, m.privacyLoss(), charged, noise),
                    m::release);
        }
        // LAPLACE
        if (rho != null || delta != null) {
            throw PrivmatException.invalidParameter(rho != null ? "rho" : "delta", "epsilon only",
                    "LAPLACE takes epsilon only (it is pure epsilon-DP)");
        }
        if (epsilon == null) {
            throw PrivmatException.invalidParameter("epsilon", "(0, 100]", "LAPLACE needs epsilon");
        }
        parameters.put("epsilon", epsilon);
        double l1 = Sensitivities.columnSumsL1(bound, d, relation);
        LaplaceVectorMechanism m = LaplaceVectorMechanism.of(l1, Decimals.toDoubleDown(epsilon), d);
        PrivacyLoss loss = new io.privmat.privacy.PureDp(epsilon);
        noise.put("distribution", "discrete Laplace on a grid");
        noise.put("scale", m.scale());
        noise.put("granularity", m.granularity());
        noise.put("l1Sensitivity", l1);
        return new Planned(new QueryPlan(kind.name(), mechanism, parameters, loss, loss, noise), m::release);
    }

    /** The dataset's neighbouring relation as the mechanisms name it. */
    static NeighbouringRelation relation(Dataset dataset) {
        return dataset.neighbouring() == Neighbouring.ADD_REMOVE
                ? NeighbouringRelation.ADD_REMOVE : NeighbouringRelation.REPLACE_ONE;
    }

    /** Range checks on epsilon, delta and rho (each optional here). */
    static void checkRanges(QueryRequest request) {
        check("epsilon", request.epsilon(), MAX_EPSILON);
        check("delta", request.delta(), MAX_DELTA);
        check("rho", request.rho(), MAX_RHO);
    }

    /** A Gaussian mechanism's requested budget: rho, or epsilon with delta (exactly one is set). */
    record GaussianBudget(@Nullable BigDecimal rho, @Nullable BigDecimal epsilon, @Nullable BigDecimal delta) {}

    /**
     * Reads a Gaussian mechanism's budget: refused under PURE accounting; rho alone (ZCDP datasets
     * only) or epsilon with delta; records the chosen parameters.
     */
    static GaussianBudget gaussianBudget(String mechanism, QueryRequest request, AccountingMode mode,
            Map<String, Object> parameters) {
        BigDecimal epsilon = request.epsilon();
        BigDecimal delta = request.delta();
        BigDecimal rho = request.rho();
        if (mode == AccountingMode.PURE) {
            throw incompatible(mode, mechanism);
        }
        if (rho != null) {
            if (epsilon != null || delta != null) {
                throw PrivmatException.invalidParameter("rho", "rho alone, or epsilon with delta",
                        "give either rho or epsilon with delta, not both");
            }
            if (mode != AccountingMode.ZCDP) {
                throw new PrivmatException(ProblemType.INCOMPATIBLE_ACCOUNTING, "rho is only accepted by datasets "
                        + "with ZCDP accounting; this one uses " + mode + ": give epsilon and delta.",
                        Map.of("accounting", mode.name(), "parameter", "rho"));
            }
            parameters.put("rho", rho);
            return new GaussianBudget(rho, null, null);
        }
        if (epsilon == null || delta == null) {
            throw PrivmatException.invalidParameter(epsilon == null ? "epsilon" : "delta", "(0, 100] and (0, 0.01]",
                    mechanism + " needs rho, or epsilon with delta");
        }
        parameters.put("epsilon", epsilon);
        parameters.put("delta", delta);
        return new GaussianBudget(null, epsilon, delta);
    }

    /**
     * Largest d for mechanisms that hold the d × d Gram matrix (200 MB per copy; the eigensolver
     * needs about three). Refused before anything is charged.
     */
    static final int MAX_GRAM_DIMENSION = 5000;

    static void checkGramDimension(int d, String mechanism) {
        if (d > MAX_GRAM_DIMENSION) {
            throw new PrivmatException(ProblemType.DATASET_TOO_LARGE, mechanism + " holds the d × d Gram matrix; "
                    + "this dataset has d = " + d + " columns (at most " + MAX_GRAM_DIMENSION + " are supported).",
                    Map.of("cols", d, "maxCols", MAX_GRAM_DIMENSION));
        }
    }

    static PrivmatException incompatible(AccountingMode mode, String mechanism) {
        return new PrivmatException(ProblemType.INCOMPATIBLE_ACCOUNTING, mechanism + " cannot be charged under "
                + mode + " accounting (it is not pure epsilon-DP).",
                Map.of("accounting", mode.name(), "parameter", "mechanism"));
    }

    static void check(String name, @Nullable BigDecimal value, BigDecimal max) {
        if (value != null && (value.signum() <= 0 || value.compareTo(max) > 0)) {
            throw PrivmatException.invalidParameter(name, "(0, " + max.toPlainString() + "]",
                    name + " must be in (0, " + max.toPlainString() + "] but was " + value.toPlainString());
        }
    }

    private static QueryKind parseKind(@Nullable String kind) {
        String allowed = String.join(" | ", Arrays.stream(QueryKind.values()).map(Enum::name).toList());
        if (kind == null) {
            throw PrivmatException.invalidParameter("kind", allowed, "kind is required: one of " + allowed);
        }
        try {
            return QueryKind.valueOf(kind.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw PrivmatException.invalidParameter("kind", allowed, "kind must be one of " + allowed);
        }
    }

    private static String parseMechanism(QueryKind kind, @Nullable String mechanism) {
        String allowed = String.join(" | ", kind.mechanisms);
        String m = mechanism == null ? null : mechanism.strip().toUpperCase(Locale.ROOT);
        if (m == null || !kind.mechanisms.contains(m)) {
            throw PrivmatException.invalidParameter("mechanism", allowed,
                    "mechanism for " + kind + " must be one of " + allowed);
        }
        return m;
    }
}
