package io.privmat.query;

import io.privmat.api.PrivmatException;
import io.privmat.api.ProblemType;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.sketch.JlGraphSketch;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import io.privmat.mechanism.sketch.JlParameters;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Plans SKETCH queries (mechanisms.md §5, §6.1): JL for graphs (cuts) and matrices (directional
 * variance), or a Wishart-noised Gram for matrices. Parameters: {@code eta} (accuracy, default 0.2;
 * JL only) and {@code nu} (failure probability of each stated interval, default 0.05). All are
 * (ε, δ)-DP: charged as (ε²/2, δ) under ZCDP (δ on the approximate track), as (ε, δ) under BASIC,
 * refused under PURE.
 */
final class SketchPlanner {

    static final double DEFAULT_ETA = 0.2;
    static final double DEFAULT_NU = 0.05;
    /** Largest r × n graph sketch (float32 entries): 200 MB. */
    static final long MAX_GRAPH_ENTRIES = 50_000_000L;

    private SketchPlanner() {}

    static QueryPlanner.Planned plan(String mechanism, Dataset dataset, QueryRequest request, AccountingMode mode) {
        Map<String, Object> params = request.params() == null ? Map.of() : request.params();
        for (String key : params.keySet()) {
            if (!Set.of("eta", "nu").contains(key)) {
                throw PrivmatException.invalidParameter("params." + key, "eta | nu", "SKETCH accepts params eta and nu");
            }
        }
        if (request.rho() != null) {
            throw PrivmatException.invalidParameter("rho", "epsilon and delta",
                    "sketches are (epsilon, delta)-DP: give epsilon and delta");
        }
        BigDecimal epsilon = request.epsilon();
        BigDecimal delta = request.delta();
        if (epsilon == null || delta == null) {
            throw PrivmatException.invalidParameter(epsilon == null ? "epsilon" : "delta", "(0, 10] and (0, 0.01]",
                    "SKETCH needs epsilon and delta");
        }
        QueryPlanner.check("epsilon", epsilon, BigDecimal.TEN);
        QueryPlanner.check("delta", delta, QueryPlanner.MAX_DELTA);
        if (mode == AccountingMode.PURE) {
            throw QueryPlanner.incompatible(mode, mechanism);
        }
        double nu = fraction(params, "nu", DEFAULT_NU);
        Map<String, Object> parameters = new TreeMap<>();
        parameters.put("kind", QueryKind.SKETCH.name());
        parameters.put("mechanism", mechanism);
        parameters.put("epsilon", epsilon);
        parameters.put("delta", delta);
        if (params.containsKey("nu")) {
            parameters.put("nu", nu);
        }
        Map<String, Object> noise = new LinkedHashMap<>();
        ApproxDp loss = new ApproxDp(epsilon, delta);
        if (mechanism.equals("WISHART")) {
            if (dataset.kind() != DatasetKind.MATRIX) {
                throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "WISHART sketches need a MATRIX dataset; "
                        + "use JL for a graph.", Map.of());
            }
            if (params.containsKey("eta")) {
                throw PrivmatException.invalidParameter("params.eta", "absent", "eta applies to JL sketches only");
            }
            if (epsilon.compareTo(BigDecimal.valueOf(2)) > 0) {
                throw PrivmatException.invalidParameter("epsilon", "(0, 2]", "epsilon must be in (0, 2] for WISHART");
            }
            QueryPlanner.checkGramDimension(Math.toIntExact(dataset.cols()), mechanism);
            WishartMechanism w = WishartMechanism.of(Math.toIntExact(dataset.cols()), dataset.rowNormBound(), epsilon,
                    delta);
            noise.put("degreesOfFreedom", w.degrees());
            noise.put("nu", nu);
            return new QueryPlanner.Planned(new QueryPlan("SKETCH", mechanism, parameters, loss, loss, noise), null,
                    null, new SketchSpec(null, null, w, nu));
        }
        double eta = fraction(params, "eta", DEFAULT_ETA);
        if (params.containsKey("eta")) {
            parameters.put("eta", eta);
        }
        try {
            if (dataset.kind() == DatasetKind.GRAPH) {
                int n = Math.toIntExact(dataset.rows());
                JlGraphSketch sketch = JlGraphSketch.of(n, epsilon, delta, eta, nu);
                JlParameters p = sketch.parameters();
                if ((long) p.r() * n > MAX_GRAPH_ENTRIES) {
                    throw PrivmatException.invalidParameter("params.eta", "larger", "the sketch would hold r·n = "
                            + (long) p.r() * n + " values (more than " + MAX_GRAPH_ENTRIES + "); raise eta");
                }
                describe(noise, p);
                noise.put("vertices", n);
                return new QueryPlanner.Planned(new QueryPlan("SKETCH", mechanism, parameters, loss, loss, noise),
                        null, null, new SketchSpec(sketch, null, null, nu));
            }
            QueryPlanner.checkGramDimension(Math.toIntExact(dataset.cols()), mechanism);
            JlMatrixSketch sketch = JlMatrixSketch.of(Math.toIntExact(dataset.cols()), dataset.rowNormBound(), epsilon,
                    delta, eta, nu);
            describe(noise, sketch.parameters());
            return new QueryPlanner.Planned(new QueryPlan("SKETCH", mechanism, parameters, loss, loss, noise), null,
                    null, new SketchSpec(null, sketch, null, nu));
        } catch (JlGraphSketch.GraphTooSmallException e) {
            throw new PrivmatException(ProblemType.GRAPH_TOO_SMALL, e.getMessage(),
                    Map.of("vertices", dataset.rows()));
        } catch (IllegalArgumentException e) {
            throw PrivmatException.invalidParameter("params.eta", "(0, 1)", e.getMessage());
        }
    }

    private static void describe(Map<String, Object> noise, JlParameters p) {
        noise.put("projections", p.r());
        noise.put("floor", p.floor());
        noise.put("eta", p.eta());
        noise.put("nu", p.nu());
    }

    private static double fraction(Map<String, Object> params, String name, double fallback) {
        Object v = params.get(name);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Number n && n.doubleValue() > 0 && n.doubleValue() < 1) {
            return n.doubleValue();
        }
        throw PrivmatException.invalidParameter("params." + name, "(0, 1)", "params." + name + " must be in (0, 1)");
    }
}
