package io.privmat.query;

import io.privmat.api.RegressionDocument;
import io.privmat.dataset.Dataset;
import io.privmat.dataset.RatingsSchema;
import io.privmat.job.Job;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.catalog.CompletionModels;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.completion.AlsRelease;
import io.privmat.mechanism.completion.CompletionModel;
import io.privmat.mechanism.completion.FrankWolfeRelease;
import io.privmat.mechanism.completion.SvdCompletionRelease;
import io.privmat.mechanism.covariance.CovarianceRelease;
import io.privmat.mechanism.linear.LinearQueryRelease;
import io.privmat.mechanism.lowrank.Factorization;
import io.privmat.plan.PlanDocuments;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * Turns a typed release into the job's result document (and its main array for {@code .npy}), one
 * rendering per result kind; stores the releases that later answer free queries.
 */
@Component
class ResultDocuments {

    /** Largest m·k of u written inline in the JSON result (it is always in the .npy array). */
    static final int INLINE_LIMIT = 100_000;

    private final ReleaseService releases;
    private final JsonMapper json;
    private final PlanDocuments documents;
    private final MechanismCatalog catalog;

    ResultDocuments(ReleaseService releases, JsonMapper json, PlanDocuments documents, MechanismCatalog catalog) {
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

    JobOutput render(Job job, Dataset dataset, Plan plan, Release release) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jobId", job.id());
        // The loss document is rendered once, from the plan's typed losses, for the release and the result.
        String loss = documents.lossJson(plan);
        return render(body, dataset, plan, loss, release, (kind, mechanism, meta, rows, cols, values, float32, strategy) -> {
            UUID id = UUID.randomUUID();
            NewRelease stored = new NewRelease(id, dataset.id(), job.id(), kind, mechanism, job.parameters(), loss,
                    meta, rows, cols, values, float32);
            if (strategy == null) {
                releases.store(stored);
            } else {
                releases.store(stored, strategy);
            }
            return id;
        });
    }

    /**
     * A dry run's result document (docs/dry-run.md): the same rendering as a job's, without a job and
     * storing nothing (a release that would answer free queries is not kept).
     */
    Map<String, Object> dryRun(Dataset dataset, Plan plan, Release release) {
        Map<String, Object> body = new LinkedHashMap<>();
        render(body, dataset, plan, documents.lossJson(plan), release,
                (kind, mechanism, meta, rows, cols, values, float32, strategy) -> null);
        return body;
    }

    private JobOutput render(Map<String, Object> body, Dataset dataset, Plan plan, String loss, Release release,
            Keep keep) {
        head(body, dataset, plan, loss);
        // Intervals, error bounds and noise warnings from the released values and public parameters only.
        putAccuracy(body, plan, release);
        int d = plan.spec().facts().cols();
        if (release instanceof Release.Vector v) {
            body.put("columnSums", v.values());
            return new JobOutput(json.writeValueAsString(body), "columnSums", new int[] {d}, v.values());
        }
        if (release instanceof Release.Covariance c) {
            return covariance(keep, plan, c, body, d);
        }
        if (release instanceof Release.Factors f) {
            return factors(f, body, d);
        }
        if (release instanceof Release.Regression r) {
            return regression(r, body);
        }
        if (release instanceof Release.LinearQueries l) {
            return linear(keep, plan, l, body);
        }
        if (release instanceof Release.Completion c) {
            return completion(keep, dataset, plan, c.model(), body);
        }
        return sketch(keep, (Release.Sketch) release, body);
    }

    /** Where a kept release is, or that a dry run kept none. */
    private static void putRelease(Map<String, Object> body, @org.jspecify.annotations.Nullable UUID id,
            ReleaseKind kind) {
        if (id != null) {
            body.put("releaseId", id);
            body.put("release", "/v1/releases/" + id);
        }
        body.put("releaseKind", kind.name());
    }

    /** The fields every result starts with (after the job's id). */
    private static void head(Map<String, Object> body, Dataset dataset, Plan plan, String loss) {
        body.put("datasetId", dataset.id());
        body.put("kind", plan.spec().kind().name());
        body.put("mechanism", plan.spec().mechanism());
        body.put("neighbouring", dataset.neighbouring().name());
        body.put("rowNormBound", dataset.rowNormBound());
        if (dataset.columnLabels() != null) {
            // The header's column names (public, docs/client.md): index i of every per-column output.
            body.put("columns", dataset.columnLabels());
        }
        body.put("loss", new RawValue(loss));
        body.put("noise", plan.noise());
    }

    /**
     * A PCA release's result document without the job's and dataset's fields: the start-up warm-up
     * ({@link Warmup}) renders its synthetic release here, so that the first job's result goes through
     * compiled code (the same accuracy, serialisers and array layout). Nothing is stored.
     */
    JobOutput pcaWithoutHead(Plan plan, Release.Covariance c) {
        if (!c.pca()) {
            throw new IllegalArgumentException("not a PCA release");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("loss", new RawValue(documents.lossJson(plan)));
        body.put("noise", plan.noise());
        putAccuracy(body, plan, c);
        return pca(plan, c, body, plan.spec().facts().cols());
    }

    /** {@code accuracy} and {@code warnings} (docs/accuracy/warnings.md): post-processing of the release. */
    private void putAccuracy(Map<String, Object> body, Plan plan, Release release) {
        ResultAccuracy accuracy = catalog.accuracy(plan, release, ResultAccuracy.DEFAULT_LEVEL);
        body.put("accuracy", accuracy);
        body.put("warnings", catalog.warnings(plan, release, accuracy));
    }

    private JobOutput covariance(Keep keep, Plan plan, Release.Covariance c, Map<String, Object> body, int d) {
        if (c.pca()) {
            return pca(plan, c, body, d);
        }
        CovarianceRelease r = spectrum(plan, c, body);
        if (c.storable() != null) {
            // The raw noisy matrix is the mechanism's output: kept as a release that answers
            // directional variance for free (the same path as the sketches).
            UUID id = keep.store(ReleaseKind.COVARIANCE, plan.spec().mechanism(), c.storableMeta(), d, d, c.storable(),
                    false, null);
            if (id != null) {
                body.put("releaseId", id);
                body.put("release", "/v1/releases/" + id);
            }
        }
        body.put("covariance", RowMajor.rows(r.covariance(), d, d));
        return new JobOutput(json.writeValueAsString(body), "covariance", new int[] {d, d}, r.covariance());
    }

    private JobOutput pca(Plan plan, Release.Covariance c, Map<String, Object> body, int d) {
        CovarianceRelease r = spectrum(plan, c, body);
        body.put("k", r.k());
        body.put("components", RowMajor.rows(r.components(), d, r.k()));
        return new JobOutput(json.writeValueAsString(body), "components", new int[] {d, r.k()}, r.components());
    }

    /** The fields every covariance-type result has. */
    private static CovarianceRelease spectrum(Plan plan, Release.Covariance c, Map<String, Object> body) {
        CovarianceRelease r = c.result();
        body.put("centered", c.centered());
        body.put("scale", c.centered() ? "sum over rows of (x − mean)(x − mean)ᵀ" : "sum over rows of x xᵀ (XᵀX)");
        if (plan.spec().facts().publicRows() != null) {
            body.put("rows", plan.spec().facts().publicRows());
        }
        body.put("eigenvalues", r.eigenvalues());
        // True when the answer says more about the noise than about the data (assessed for Wishart).
        body.put("noiseDominated", r.noiseDominated());
        return r;
    }

    private JobOutput factors(Release.Factors r, Map<String, Object> body, int d) {
        Factorization f = r.factorization();
        body.put("facts", f.facts());
        body.put("k", f.k());
        body.put("singularValues", f.s());
        body.put("v", RowMajor.rows(f.v(), d, f.k()));
        if (r.leftFactor() && f.u() != null) {
            body.put("rows", f.m());
            // Inline up to INLINE_LIMIT values; always in the .npy body.
            putInline(body, "u", f.u(), f.m(), f.k());
            return new JobOutput(json.writeValueAsString(body), "u", new int[] {f.m(), f.k()}, f.u());
        }
        return new JobOutput(json.writeValueAsString(body), "v", new int[] {d, f.k()}, f.v());
    }

    private JobOutput regression(Release.Regression r, Map<String, Object> body) {
        RegressionDocument doc = RegressionDocument.of(r.result());
        body.put("response", doc.response());
        body.put("predictors", doc.predictors());
        body.put("ridge", doc.ridge());
        body.put("ridgeRule", doc.ridgeRule());
        body.put("estimand", doc.estimand());
        body.put("level", doc.level());
        body.put("intervals", doc.intervals());
        body.put("coefficients", doc.coefficients());
        body.put("released", r.facts());
        double[] estimate = r.result().estimate();
        return new JobOutput(json.writeValueAsString(body), "coefficients", new int[] {estimate.length}, estimate);
    }

    /**
     * LINEAR_QUERIES: the answers (inline up to {@link #INLINE_LIMIT}, always as .npy), their standard
     * deviations, the expected error the quote stated, and the estimate x̂ stored as a release.
     */
    private JobOutput linear(Keep keep, Plan plan, Release.LinearQueries l, Map<String, Object> body) {
        LinearQueryRelease r = l.result();
        int m = r.answers().length;
        body.put("queries", m);
        boolean inline = m <= INLINE_LIMIT;
        body.put("answersInline", inline);
        if (inline) {
            body.put("answers", r.answers());
            body.put("standardDeviations", r.standardDeviations());
        }
        body.put("expectedRmsePerQuery", r.expectedError().perQueryRmse());
        body.put("expectedTotalSquaredError", r.expectedError().totalSquaredError());
        if (plan.noise().has(NoiseFacts.RESIDUAL_FROBENIUS)) {
            body.put("residualFrobenius", r.expectedError().residualFrobenius());
        }
        if (r.estimate() != null) {
            double[] xHat = r.estimate().values();
            putRelease(body, keep.store(ReleaseKind.HISTOGRAM_ESTIMATE, plan.spec().mechanism(), l.estimateMeta(), 1,
                    xHat.length, xHat, false, r.estimate().strategy()), ReleaseKind.HISTOGRAM_ESTIMATE);
        }
        return new JobOutput(json.writeValueAsString(body), "answers", new int[] {m}, r.answers());
    }

    /**
     * COMPLETION: the global model analysts may see (item directions or factors, the released
     * spectrum), stored as a COMPLETION_MODEL release from which the data owner's per-user predictions
     * are computed ({@code GET /v1/jobs/{id}/predictions}); no user's row is in the result.
     */
    private JobOutput completion(Keep keep, Dataset dataset, Plan plan, CompletionModel model,
            Map<String, Object> body) {
        int n = plan.spec().facts().cols();
        String kind = CompletionModels.kind(model);
        Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
        meta.put(ReleaseMeta.MODEL, kind);
        meta.put(ReleaseMeta.ITEMS, n);
        body.put("model", kind);
        body.put("items", n);
        if (dataset.schema() instanceof RatingsSchema r && r.labels() != null
                && r.labels().size() <= INLINE_LIMIT) {
            body.put("itemLabels", r.labels());
        }
        body.put("facts", CompletionModels.facts(model));
        double[] main;
        int[] shape;
        String name;
        if (model instanceof FrankWolfeRelease f) {
            int t = f.parameters().iterations();
            meta.put(ReleaseMeta.ITERATIONS, t);
            body.put("iterations", t);
            body.put("spectrum", f.lambdaHat());
            body.put("spectrumUpperBounds", f.lambdaPrime());
            main = f.directions();
            shape = new int[] {t, n};
            name = "directions";
            putInline(body, name, main, t, n);
        } else if (model instanceof SvdCompletionRelease s) {
            int r = s.parameters().rank();
            meta.put(ReleaseMeta.RANK, r);
            body.put("rank", r);
            body.put("eigenvalues", s.eigenvalues());
            main = s.directions();
            shape = new int[] {n, r};
            name = "directions";
            putInline(body, name, main, n, r);
        } else {
            AlsRelease a = (AlsRelease) model;
            int r = a.parameters().rank();
            meta.put(ReleaseMeta.RANK, r);
            meta.put(ReleaseMeta.ITERATIONS, a.parameters().iterations());
            body.put("rank", r);
            body.put("iterations", a.parameters().iterations());
            main = a.itemFactors();
            shape = new int[] {n, r};
            name = "itemFactors";
            putInline(body, name, main, n, r);
        }
        double[] values = CompletionModels.values(model);
        UUID id = keep.store(ReleaseKind.COMPLETION_MODEL, plan.spec().mechanism(), meta.build(), 1,
                values.length, values, false, null);
        putRelease(body, id, ReleaseKind.COMPLETION_MODEL);
        if (id != null) {
            body.put("predictions", "/v1/jobs/" + body.get("jobId") + "/predictions");
        }
        return new JobOutput(json.writeValueAsString(body), name, shape, main);
    }

    /** A rows × cols row-major array inline when it has at most {@link #INLINE_LIMIT} values. */
    private static void putInline(Map<String, Object> body, String name, double[] values, int rows, int cols) {
        boolean inline = (long) rows * cols <= INLINE_LIMIT;
        body.put(name + "Inline", inline);
        if (inline) {
            body.put(name, RowMajor.rows(values, rows, cols));
        }
    }

    private JobOutput sketch(Keep keep, Release.Sketch s, Map<String, Object> body) {
        ReleaseKind kind = s.graph() ? ReleaseKind.GRAPH_SKETCH : ReleaseKind.MATRIX_SKETCH;
        putRelease(body, keep.store(kind, s.sketchMechanism(), s.meta(), s.rows(), s.cols(), s.values(), s.graph(),
                null), kind);
        body.put("meta", s.meta());
        return JobOutput.json(json.writeValueAsString(body));
    }
}
