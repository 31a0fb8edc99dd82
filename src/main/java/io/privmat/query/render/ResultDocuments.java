package io.privmat.query.render;

import io.privmat.api.RegressionDocument;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.RatingsSchema;
import io.privmat.job.Job;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.completion.AlsRelease;
import io.privmat.mechanism.completion.CompletionModel;
import io.privmat.mechanism.completion.CompletionModels;
import io.privmat.mechanism.completion.CompletionRelease;
import io.privmat.mechanism.completion.FrankWolfeRelease;
import io.privmat.mechanism.completion.SvdCompletionRelease;
import io.privmat.mechanism.linear.LinearQueriesRelease;
import io.privmat.mechanism.linear.LinearQueryRelease;
import io.privmat.plan.PlanDocuments;
import io.privmat.query.QueryResult;
import io.privmat.query.QueryResult.Charge;
import io.privmat.query.QueryResult.Head;
import io.privmat.query.QueryResult.Kept;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * Turns a typed release into the job's result document (and its main array for {@code .npy}), one
 * rendering per result kind; stores the releases that later answer free queries.
 */
@Component
public class ResultDocuments {

    /** Largest m·k of u written inline in the JSON result (it is always in the .npy array). */
    static final int INLINE_LIMIT = 100_000;

    private final ReleaseService releases;
    private final JsonMapper json;
    private final PlanDocuments documents;
    private final MechanismCatalog catalog;

    public ResultDocuments(ReleaseService releases, JsonMapper json, PlanDocuments documents,
            MechanismCatalog catalog) {
        this.releases = releases;
        this.json = json;
        this.documents = documents;
        this.catalog = catalog;
    }

    /**
     * Where a release that answers free queries goes: stored under the job (its id returned), or
     * nowhere for a dry run (null).
     */
    @FunctionalInterface
    interface Keep {
        /**
         * @param strategy an estimate's strategy (stored with the release when its meta names it), or null
         */
        @org.jspecify.annotations.Nullable UUID store(ReleaseKind kind, String mechanism, Facts meta,
                int rows, int cols, double[] values, boolean float32,
                io.privmat.mechanism.linear.@org.jspecify.annotations.Nullable Strategy strategy);
    }

    public JobOutput render(Job job, Dataset dataset, Plan plan, Release release) {
        // The loss document is rendered once, from the plan's typed losses, for the release and the result.
        String loss = documents.lossJson(plan);
        return render(job.id(), dataset, plan, loss, release, (kind, mechanism, meta, rows, cols, values, float32,
                strategy) -> {
            UUID id = UUID.randomUUID();
            NewRelease stored = new NewRelease(id, dataset.id(), job.id(), kind, mechanism, job.parameters(), loss,
                    meta, rows, cols, values, float32);
            if (strategy == null) {
                releases.store(stored);
            } else {
                releases.store(stored, strategy);
            }
            return id;
        }).output();
    }

    /**
     * A dry run's result document (docs/dry-run.md): the same rendering as a job's, without a job and
     * storing nothing (a release that would answer free queries is not kept).
     */
    public QueryResult dryRun(Dataset dataset, Plan plan, Release release) {
        return render(null, dataset, plan, documents.lossJson(plan), release,
                (kind, mechanism, meta, rows, cols, values, float32, strategy) -> null).result();
    }

    /** A result document and the job output written from it. */
    private record Rendered(QueryResult result, JobOutput output) {}

    private Rendered render(@org.jspecify.annotations.Nullable UUID jobId, Dataset dataset, Plan plan, String loss,
            Release release, Keep keep) {
        Head head = new Head(jobId, dataset.id(), plan.spec().kind().name(), plan.spec().mechanism(),
                dataset.neighbouring().name(), dataset.rowNormBound(), dataset.columnLabels());
        Charge charge = charge(plan, loss, release);
        int d = plan.spec().facts().cols();
        if (release instanceof Release.Vector v) {
            return rendered(new QueryResult.ColumnSums(head, charge, v.values()), "columnSums", new int[] {d},
                    v.values());
        }
        if (release instanceof Release.Covariance c) {
            return covariance(keep, plan, c, head, charge, d);
        }
        if (release instanceof Release.Factors f) {
            return factors(f, head, charge, d);
        }
        if (release instanceof Release.Regression r) {
            double[] estimate = r.result().estimate();
            return rendered(new QueryResult.Regression(head, charge, RegressionDocument.of(r.result()), r.facts()),
                    "coefficients", new int[] {estimate.length}, estimate);
        }
        if (release instanceof LinearQueriesRelease l) {
            return linear(keep, plan, l, head, charge);
        }
        if (release instanceof CompletionRelease c) {
            return completion(keep, dataset, plan, c.model(), head, charge);
        }
        Release.Sketch s = (Release.Sketch) release;
        ReleaseKind kind = s.graph() ? ReleaseKind.GRAPH_SKETCH : ReleaseKind.MATRIX_SKETCH;
        UUID id = keep.store(kind, s.sketchMechanism(), s.meta(), s.rows(), s.cols(), s.values(), s.graph(), null);
        QueryResult result = new QueryResult.Sketch(head, charge, Kept.of(id, kind.name()), s.meta());
        return new Rendered(result, JobOutput.json(json.writeValueAsString(result)));
    }

    private Rendered rendered(QueryResult result, String name, int[] shape, double[] main) {
        return new Rendered(result, new JobOutput(json.writeValueAsString(result), name, shape, main));
    }

    /**
     * A PCA release's result document without the job's and dataset's fields: the start-up warm-up
     * ({@link io.privmat.query.warmup.Warmup}) renders its synthetic release here, so that the first
     * job's result goes through compiled code (the same accuracy, serialisers and array layout).
     * Nothing is stored.
     */
    public JobOutput pcaWithoutHead(Plan plan, Release.Covariance c) {
        if (!c.pca()) {
            throw new IllegalArgumentException("not a PCA release");
        }
        return pca(plan, c, null, charge(plan, documents.lossJson(plan), c), plan.spec().facts().cols()).output();
    }

    /** {@code accuracy} and {@code warnings} (docs/accuracy/warnings.md): post-processing of the release. */
    private Charge charge(Plan plan, String loss, Release release) {
        ResultAccuracy accuracy = catalog.accuracy(plan, release, ResultAccuracy.DEFAULT_LEVEL);
        return new Charge(new RawValue(loss), plan.noise(), accuracy, catalog.warnings(plan, release, accuracy));
    }

    private Rendered covariance(Keep keep, Plan plan, Release.Covariance c, Head head, Charge charge, int d) {
        if (c.pca()) {
            return pca(plan, c, head, charge, d);
        }
        CovarianceRelease r = c.result();
        UUID id = null;
        if (c.storable() != null) {
            // The raw noisy matrix is the mechanism's output: kept as a release that answers
            // directional variance for free (the same path as the sketches).
            id = keep.store(ReleaseKind.COVARIANCE, plan.spec().mechanism(), c.storableMeta(), d, d, c.storable(),
                    false, null);
        }
        return rendered(new QueryResult.Covariance(head, charge, spectrum(plan, c), Kept.of(id, null),
                RowMajor.rows(r.covariance(), d, d)), "covariance", new int[] {d, d}, r.covariance());
    }

    private Rendered pca(Plan plan, Release.Covariance c, @org.jspecify.annotations.Nullable Head head, Charge charge,
            int d) {
        CovarianceRelease r = c.result();
        return rendered(new QueryResult.Pca(head, charge, spectrum(plan, c), r.k(),
                RowMajor.rows(r.components(), d, r.k())), "components", new int[] {d, r.k()}, r.components());
    }

    /** The fields every covariance-type result has. */
    private static QueryResult.Spectrum spectrum(Plan plan, Release.Covariance c) {
        CovarianceRelease r = c.result();
        // noiseDominated: true when the answer says more about the noise than about the data (assessed for Wishart).
        return new QueryResult.Spectrum(c.centered(),
                c.centered() ? "sum over rows of (x − mean)(x − mean)ᵀ" : "sum over rows of x xᵀ (XᵀX)",
                plan.spec().facts().publicRows(), r.eigenvalues(), r.noiseDominated());
    }

    private Rendered factors(Release.Factors r, Head head, Charge charge, int d) {
        Factorization f = r.factorization();
        double[][] v = RowMajor.rows(f.v(), d, f.k());
        if (r.leftFactor() && f.u() != null) {
            // Inline up to INLINE_LIMIT values; always in the .npy body.
            boolean inline = inline(f.m(), f.k());
            return rendered(new QueryResult.Factors(head, charge, f.facts(), f.k(), f.s(), v, f.m(), inline,
                    inline ? RowMajor.rows(f.u(), f.m(), f.k()) : null), "u", new int[] {f.m(), f.k()}, f.u());
        }
        return rendered(new QueryResult.Factors(head, charge, f.facts(), f.k(), f.s(), v, null, null, null), "v",
                new int[] {d, f.k()}, f.v());
    }

    /**
     * LINEAR_QUERIES: the answers (inline up to {@link #INLINE_LIMIT}, always as .npy), their standard
     * deviations, the expected error the quote stated, and the estimate x̂ stored as a release.
     */
    private Rendered linear(Keep keep, Plan plan, LinearQueriesRelease l, Head head, Charge charge) {
        LinearQueryRelease r = l.result();
        int m = r.answers().length;
        boolean inline = m <= INLINE_LIMIT;
        Kept kept = null;
        if (r.estimate() != null) {
            double[] xHat = r.estimate().values();
            kept = Kept.of(keep.store(ReleaseKind.HISTOGRAM_ESTIMATE, plan.spec().mechanism(), l.estimateMeta(), 1,
                    xHat.length, xHat, false, r.estimate().strategy()), ReleaseKind.HISTOGRAM_ESTIMATE.name());
        }
        return rendered(new QueryResult.LinearQueries(head, charge, m, inline, inline ? r.answers() : null,
                inline ? r.standardDeviations() : null, r.expectedError().perQueryRmse(),
                r.expectedError().totalSquaredError(), plan.noise().has(NoiseFacts.RESIDUAL_FROBENIUS)
                        ? r.expectedError().residualFrobenius() : null, kept), "answers", new int[] {m}, r.answers());
    }

    /**
     * COMPLETION: the global model analysts may see (item directions or factors, the released
     * spectrum), stored as a COMPLETION_MODEL release from which the data owner's per-user predictions
     * are computed ({@code GET /v1/jobs/{id}/predictions}); no user's row is in the result.
     */
    private Rendered completion(Keep keep, Dataset dataset, Plan plan, CompletionModel model, Head head,
            Charge charge) {
        int n = plan.spec().facts().cols();
        String kind = CompletionModels.kind(model);
        Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
        meta.put(ReleaseMeta.MODEL, kind);
        meta.put(ReleaseMeta.ITEMS, n);
        List<String> labels = dataset.schema() instanceof RatingsSchema r && r.labels() != null
                && r.labels().size() <= INLINE_LIMIT ? r.labels() : null;
        Integer rank = null;
        Integer iterations = null;
        double[] spectrum = null;
        double[] upper = null;
        double[] eigenvalues = null;
        double[] main;
        int[] shape;
        String name;
        if (model instanceof FrankWolfeRelease f) {
            iterations = f.parameters().iterations();
            meta.put(ReleaseMeta.ITERATIONS, iterations);
            spectrum = f.lambdaHat();
            upper = f.lambdaPrime();
            main = f.directions();
            shape = new int[] {iterations, n};
            name = "directions";
        } else if (model instanceof SvdCompletionRelease s) {
            rank = s.parameters().rank();
            meta.put(ReleaseMeta.RANK, rank);
            eigenvalues = s.eigenvalues();
            main = s.directions();
            shape = new int[] {n, rank};
            name = "directions";
        } else {
            AlsRelease a = (AlsRelease) model;
            rank = a.parameters().rank();
            iterations = a.parameters().iterations();
            meta.put(ReleaseMeta.RANK, rank);
            meta.put(ReleaseMeta.ITERATIONS, iterations);
            main = a.itemFactors();
            shape = new int[] {n, rank};
            name = "itemFactors";
        }
        // The main array inline up to INLINE_LIMIT values; always in the .npy body.
        boolean inline = inline(shape[0], shape[1]);
        double[][] rows = inline ? RowMajor.rows(main, shape[0], shape[1]) : null;
        boolean directions = name.equals("directions");
        double[] values = CompletionModels.values(model);
        UUID id = keep.store(ReleaseKind.COMPLETION_MODEL, plan.spec().mechanism(), meta.build(), 1,
                values.length, values, false, null);
        return rendered(new QueryResult.Completion(head, charge, kind, n, labels, CompletionModels.facts(model), rank,
                iterations, spectrum, upper, eigenvalues, directions ? inline : null, directions ? rows : null,
                directions ? null : inline, directions ? null : rows,
                Kept.of(id, ReleaseKind.COMPLETION_MODEL.name()),
                id == null ? null : "/v1/jobs/" + head.jobId() + "/predictions"), name, shape, main);
    }

    /** Whether a rows × cols array is written inline (at most {@link #INLINE_LIMIT} values). */
    private static boolean inline(int rows, int cols) {
        return (long) rows * cols <= INLINE_LIMIT;
    }
}
