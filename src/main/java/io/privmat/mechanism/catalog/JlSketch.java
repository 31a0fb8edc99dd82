package io.privmat.mechanism.catalog;

import io.privmat.mechanism.sketch.JlGraphSketch;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import io.privmat.mechanism.sketch.JlParameters;
import io.privmat.privacy.ApproxDp;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JL (Blocki–Blum–Datta–Sheffet 2012; Upadhyay): a Johnson–Lindenstrauss projection of the graph's
 * edge matrix overlaid with the complete graph of weight w/n (cuts), or of the rows with √w·I appended
 * (directional variances); (ε, δ)-DP for ε ≤ 10. docs/mechanisms/sketches.md.
 */
public final class JlSketch extends Described {

    /** Largest r × n graph sketch (float32 entries): 200 MB. */
    static final long MAX_GRAPH_ENTRIES = 50_000_000L;

    public JlSketch() {
        super("JL", "A private Johnson–Lindenstrauss sketch; cuts or directional variances are then free.",
                EnumSet.of(QueryKind.SKETCH), EnumSet.of(DataShape.MATRIX, DataShape.GRAPH), BOTH, Budget.Form.APPROXIMATE,
                BigDecimal.TEN, Input.GRAM, List.of(
                        Param.fraction("eta", 0.2, "multiplicative accuracy of the answers"),
                        Param.fraction("nu", 0.05, "failure probability of each stated interval")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return facts.shape() == DataShape.GRAPH
                ? new Sensitivity("graph Laplacian", "Frobenius", 2,
                        "one edge of weight w ≤ 1 changes L by w(e_u − e_v)(e_u − e_v)ᵀ, of Frobenius norm 2w")
                : new Sensitivity("XᵀX", "Frobenius", io.privmat.mechanism.Sensitivities.gramFrobenius(
                        facts.rowNormBound(), facts.relation()), "as for ANALYZE_GAUSS; the JL analysis uses B²");
    }

    /** Graphs: the edge list; matrices: XᵀX. */
    @Override
    public Input input(DataShape shape) {
        return shape == DataShape.GRAPH ? Input.EDGES : Input.GRAM;
    }

    @Override
    public Map<String, Object> exampleParams(QueryKind kind) {
        return Map.of();
    }

    /** An edge of weight 1 added to a graph; orthogonal rows for a matrix (as ANALYZE_GAUSS). */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        return facts.shape() == DataShape.GRAPH ? List.of(new NeighbouringChange.AddedEdge(0, facts.cols() - 1, 1.0))
                : orthogonalRows(facts);
    }

    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        if (facts.shape() == DataShape.MATRIX) {
            return data.gram(false).gram();
        }
        int n = facts.cols();
        double[] laplacian = new double[n * n];
        data.edges().forEachEdge((u, v, w) -> {
            laplacian[u * n + u] += w;
            laplacian[v * n + v] += w;
            laplacian[u * n + v] -= w;
            laplacian[v * n + u] -= w;
        });
        return laplacian;
    }

    @Override
    public Plan plan(QueryKind kind, Budget budget, Params params, PublicFacts facts) {
        double eta = params.number("eta");
        double nu = params.number("nu");
        PrivacyMap privacy = PrivacyMap.of(new ApproxDp(budget.epsilon(), budget.delta()));
        Map<String, Object> noise = new LinkedHashMap<>();
        try {
            if (facts.shape() == DataShape.GRAPH) {
                int n = facts.cols();
                JlGraphSketch sketch = JlGraphSketch.of(n, budget.epsilon(), budget.delta(), eta, nu);
                JlParameters p = sketch.parameters();
                if ((long) p.r() * n > MAX_GRAPH_ENTRIES) {
                    throw PlanningException.invalid("params.eta", "larger", "the sketch would hold r·n = "
                            + (long) p.r() * n + " values (more than " + MAX_GRAPH_ENTRIES + "); raise eta");
                }
                describe(noise, p);
                noise.put("vertices", n);
                return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.EDGES, (data, random) -> {
                    double[] values = sketch.release(data.edges(), random);
                    Map<String, Object> meta = meta(p);
                    meta.put("vertices", n);
                    return new Release.Sketch(true, name(), p.r(), n, values, meta);
                });
            }
            int d = facts.cols();
            Limits.checkGramDimension(d, name());
            JlMatrixSketch sketch = JlMatrixSketch.of(d, facts.rowNormBound(), budget.epsilon(), budget.delta(), eta, nu);
            JlParameters p = sketch.parameters();
            describe(noise, p);
            return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) ->
                    new Release.Sketch(false, name(), p.r(), d, sketch.release(data.gram(false).gram(), random), meta(p)));
        } catch (JlGraphSketch.GraphTooSmallException e) {
            throw new PlanningException(PlanningException.Reason.GRAPH_TOO_SMALL, e.getMessage(),
                    Map.of("vertices", facts.cols()));
        } catch (PlanningException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw PlanningException.invalid("params.eta", "(0, 1)", e.getMessage());
        }
    }

    private static void describe(Map<String, Object> noise, JlParameters p) {
        noise.put("projections", p.r());
        noise.put("floor", p.floor());
        noise.put("eta", p.eta());
        noise.put("nu", p.nu());
    }

    private static Map<String, Object> meta(JlParameters p) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("r", p.r());
        meta.put("floor", p.floor());
        meta.put("epsilon", p.epsilon());
        meta.put("delta", p.delta());
        meta.put("eta", p.eta());
        meta.put("nu", p.nu());
        meta.put("b2", p.b2());
        return meta;
    }
}
