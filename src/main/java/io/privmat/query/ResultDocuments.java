package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.job.Job;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.api.RegressionDocument;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.covariance.CovarianceRelease;
import io.privmat.mechanism.lowrank.Factorization;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

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

    ResultDocuments(ReleaseService releases, JsonMapper json) {
        this.releases = releases;
        this.json = json;
    }

    JobOutput render(Job job, Dataset dataset, Plan plan, Release release) {
        Map<String, Object> body = head(job, dataset, plan);
        int d = plan.spec().facts().cols();
        if (release instanceof Release.Vector v) {
            body.put("columnSums", v.values());
            return new JobOutput(json.writeValueAsString(body), "columnSums", new int[] {d}, v.values());
        }
        if (release instanceof Release.Covariance c) {
            return covariance(job, dataset, plan, c, body, d);
        }
        if (release instanceof Release.Factors f) {
            return factors(f, body, d);
        }
        if (release instanceof Release.Regression r) {
            return regression(r, body);
        }
        return sketch(job, dataset, plan, (Release.Sketch) release, body);
    }

    /** The fields every result starts with. */
    private static Map<String, Object> head(Job job, Dataset dataset, Plan plan) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jobId", job.id());
        body.put("datasetId", dataset.id());
        body.put("kind", plan.spec().kind().name());
        body.put("mechanism", plan.spec().mechanism());
        body.put("neighbouring", dataset.neighbouring().name());
        body.put("rowNormBound", dataset.rowNormBound());
        body.put("loss", QueryPlans.lossDocument(plan));
        body.put("noise", plan.noise());
        return body;
    }

    private JobOutput covariance(Job job, Dataset dataset, Plan plan, Release.Covariance c, Map<String, Object> body,
            int d) {
        CovarianceRelease r = c.result();
        body.put("centered", c.centered());
        body.put("scale", c.centered() ? "sum over rows of (x − mean)(x − mean)ᵀ" : "sum over rows of x xᵀ (XᵀX)");
        if (plan.spec().facts().publicRows() != null) {
            body.put("rows", plan.spec().facts().publicRows());
        }
        body.put("eigenvalues", r.eigenvalues());
        // True when the answer says more about the noise than about the data (assessed for Wishart).
        body.put("noiseDominated", r.noiseDominated());
        if (c.pca()) {
            body.put("k", r.k());
            body.put("components", RowMajor.rows(r.components(), d, r.k()));
            return new JobOutput(json.writeValueAsString(body), "components", new int[] {d, r.k()}, r.components());
        }
        if (c.storable() != null) {
            // The raw noisy matrix is the mechanism's output: kept as a release that answers
            // directional variance for free (the same path as the sketches).
            UUID id = UUID.randomUUID();
            releases.store(new NewRelease(id, dataset.id(), job.id(), ReleaseKind.COVARIANCE, plan.spec().mechanism(),
                    job.parameters(), json.writeValueAsString(QueryPlans.lossDocument(plan)), c.storableMeta(), d, d,
                    c.storable(), false));
            body.put("releaseId", id);
            body.put("release", "/v1/releases/" + id);
        }
        body.put("covariance", RowMajor.rows(r.covariance(), d, d));
        return new JobOutput(json.writeValueAsString(body), "covariance", new int[] {d, d}, r.covariance());
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
            boolean inline = (long) f.m() * f.k() <= INLINE_LIMIT;
            body.put("uInline", inline);
            if (inline) {
                body.put("u", RowMajor.rows(f.u(), f.m(), f.k()));
            }
            return new JobOutput(json.writeValueAsString(body), "u", new int[] {f.m(), f.k()}, f.u());
        }
        return new JobOutput(json.writeValueAsString(body), "v", new int[] {d, f.k()}, f.v());
    }

    private JobOutput regression(Release.Regression r, Map<String, Object> body) {
        body.putAll(RegressionDocument.of(r.result()));
        body.put("released", r.facts());
        double[] estimate = r.result().estimate();
        return new JobOutput(json.writeValueAsString(body), "coefficients", new int[] {estimate.length}, estimate);
    }

    private JobOutput sketch(Job job, Dataset dataset, Plan plan, Release.Sketch s, Map<String, Object> body) {
        UUID id = UUID.randomUUID();
        ReleaseKind kind = s.graph() ? ReleaseKind.GRAPH_SKETCH : ReleaseKind.MATRIX_SKETCH;
        releases.store(new NewRelease(id, dataset.id(), job.id(), kind, s.sketchMechanism(), job.parameters(),
                json.writeValueAsString(QueryPlans.lossDocument(plan)), s.meta(), s.rows(), s.cols(), s.values(),
                s.graph()));
        body.put("releaseId", id);
        body.put("release", "/v1/releases/" + id);
        body.put("releaseKind", kind.name());
        body.put("meta", s.meta());
        return JobOutput.json(json.writeValueAsString(body));
    }
}
