package io.privmat.mechanism.sketch;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.privacy.ApproxDp;
import java.math.BigDecimal;
import java.util.EnumSet;
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
                EnumSet.of(QueryKind.SKETCH), EnumSet.of(DataShape.MATRIX, DataShape.GRAPH), BOTH, QueryBudget.Form.APPROXIMATE,
                BigDecimal.TEN, Input.GRAM, List.of(
                        Param.fraction("eta", 0.2, "multiplicative accuracy of the answers"),
                        Param.fraction("nu", 0.05, "failure probability of each stated interval")));
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return facts.shape() == DataShape.GRAPH
                ? new Sensitivity("graph Laplacian", "Frobenius", 2,
                        "one edge of weight w ≤ 1 changes L by w(e_u − e_v)(e_u − e_v)ᵀ, of Frobenius norm 2w")
                : new Sensitivity("XᵀX", "Frobenius", Sensitivities.gramFrobenius(
                        facts.rowNormBound(), facts.relation()), "as for ANALYZE_GAUSS; the JL analysis uses B²");
    }

    /** Graphs: the edge list; matrices: XᵀX. */
    @Override
    public Input input(DataShape shape) {
        return shape == DataShape.GRAPH ? Input.EDGES : Input.GRAM;
    }

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.empty();
    }

    /** An edge of weight 1 added to a graph; orthogonal rows for a matrix (as for any noise on XᵀX). */
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
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        double eta = params.number("eta");
        double nu = params.number("nu");
        PrivacyMap privacy = PrivacyMap.of(new ApproxDp(budget.epsilon(), budget.delta()));
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
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
                noise.put(NoiseFacts.VERTICES, n);
                return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.EDGES, (data, random) -> {
                    double[] values = sketch.release(data.edges(), random);
                    Facts meta = meta(p).put(ReleaseMeta.VERTICES, n).build();
                    return new Release.Sketch(true, name(), p.r(), n, values, meta);
                });
            }
            int d = facts.cols();
            Limits.checkGramDimension(d, name());
            JlMatrixSketch sketch = JlMatrixSketch.of(d, facts.rowNormBound(), budget.epsilon(), budget.delta(), eta, nu);
            JlParameters p = sketch.parameters();
            describe(noise, p);
            return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) ->
                    new Release.Sketch(false, name(), p.r(), d, sketch.release(data.gram(false).gram(), random),
                            meta(p).build()));
        } catch (JlGraphSketch.GraphTooSmallException e) {
            throw new PlanningException(PlanningException.Reason.GRAPH_TOO_SMALL, e.getMessage(),
                    Map.of("vertices", facts.cols()));
        } catch (PlanningException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw PlanningException.invalid("params.eta", "(0, 1)", e.getMessage());
        }
    }

    private static void describe(Facts.Builder noise, JlParameters p) {
        noise.put(NoiseFacts.PROJECTIONS, p.r());
        noise.put(NoiseFacts.FLOOR, p.floor());
        noise.put(NoiseFacts.ETA, p.eta());
        noise.put(NoiseFacts.NU, p.nu());
    }

    private static Facts.Builder meta(JlParameters p) {
        Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
        meta.put(ReleaseMeta.R, p.r());
        meta.put(ReleaseMeta.FLOOR, p.floor());
        meta.put(ReleaseMeta.EPSILON, p.epsilon());
        meta.put(ReleaseMeta.DELTA, p.delta());
        meta.put(ReleaseMeta.ETA, p.eta());
        meta.put(ReleaseMeta.NU, p.nu());
        meta.put(ReleaseMeta.B2, p.b2());
        return meta;
    }

    /**
     * The JL guarantee of every free answer, at probability 1 − ν: |Φ̂ − Φ| ≤ η·Φ + η·A, A the
     * additive term — the floor W for a directional variance; for the cut of a set of s vertices the
     * overlay's cut w·s(n − s)/n over (1 − w/n), largest (stated) for a balanced cut, s = n/2, and
     * smallest for one vertex. The quote shows both, so a small cut's noise is visible before
     * anything is spent.
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        double eta = plan.noise().get(NoiseFacts.ETA);
        double nu = plan.noise().get(NoiseFacts.NU);
        double floor = plan.noise().get(NoiseFacts.FLOOR);
        double level = 1 - nu;
        if (plan.spec().facts().shape() == DataShape.GRAPH) {
            int n = plan.spec().facts().cols();
            double scale = 1 - floor / n;
            double balanced = floor / n * Math.floor(n / 2.0) * Math.ceil(n / 2.0) / scale;
            double single = floor / n * (n - 1) / scale;
            return List.of(new ErrorStatement("cut", "relative", eta, level, ErrorBasis.BOUND,
                            "|Φ̂ − Φ| ≤ η·Φ + η·w·s(n − s)/n/(1 − w/n) for a set of s vertices (JL, overlay weight w)"),
                    new ErrorStatement("cut (additive, balanced set)", "absPerAnswer", eta * balanced, level,
                            ErrorBasis.BOUND, "the additive term η·w·s(n − s)/n/(1 − w/n) at s = n/2: a cut much "
                            + "smaller than this is not resolved"),
                    new ErrorStatement("cut (additive, one vertex)", "absPerAnswer", eta * single, level,
                            ErrorBasis.BOUND, "the additive term at s = 1 (a vertex's degree)"));
        }
        return List.of(new ErrorStatement("directionalVariance", "relative", eta, level, ErrorBasis.BOUND,
                        "|Φ̂ − Φ| ≤ η·(Φ + W) for a unit x (JL, public eigenvalue floor W)"),
                new ErrorStatement("directionalVariance (additive)", "absPerAnswer", eta * floor, level,
                        ErrorBasis.BOUND, "the additive term η·W: a directional variance much below it is not "
                        + "resolved"));
    }

    /** The sketch is a release: its free answers carry their intervals; the result restates the guarantee. */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return new ResultAccuracy(1 - plan.noise().get(NoiseFacts.NU), List.of(), expectedError(plan), "each free "
                + "answer of the release (/v1/releases) carries its interval at 1 − ν, the sketch's own level");
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.PROJECTIONS.note("JL: the number r of random projections"),
            NoiseFacts.FLOOR.note("JL: the public eigenvalue floor W (matrices) or the overlay weight w "
                    + "(graphs)"),
            NoiseFacts.ETA.note("JL: multiplicative accuracy of the answers"),
            ReleaseMeta.R.note("JL: the number of random projections"),
            ReleaseMeta.FLOOR.note("JL: the public eigenvalue floor W (matrices) or the overlay weight w "
                    + "(graphs)"),
            ReleaseMeta.EPSILON.note("JL: the epsilon the sketch was calibrated to"),
            ReleaseMeta.DELTA.note("JL: the delta the sketch was calibrated to"),
            ReleaseMeta.ETA.note("JL: multiplicative accuracy of the answers"));
    }
}
