package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.Neighbouring;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.covariance.CovarianceRelease;
import io.privmat.mechanism.covariance.PostProcessing;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs COVARIANCE and PCA jobs: streams the row chunks into XᵀX (and the column sums when
 * centring) with O(d²) memory, applies the planned mechanism, post-processes (PSD projection,
 * eigenvalue clamping to [0, n·B²] when n is public, top-k subspace) and stores the result.
 */
@Configuration(proxyBeanMethods = false)
class CovarianceHandlers {

    @Bean
    JobHandler covarianceHandler(JobInputs inputs, ReleaseService releases) {
        return new Runner(QueryKind.COVARIANCE, inputs, releases);
    }

    @Bean
    JobHandler pcaHandler(JobInputs inputs, ReleaseService releases) {
        return new Runner(QueryKind.PCA, inputs, releases);
    }

    static final class Runner implements JobHandler {
        private final QueryKind kind;
        private final JobInputs inputs;
        private final ReleaseService releases;

        Runner(QueryKind kind, JobInputs inputs, ReleaseService releases) {
            this.kind = kind;
            this.inputs = inputs;
            this.releases = releases;
        }

        @Override
        public String kind() {
            return kind.name();
        }

        @Override
        public JobOutput run(JobContext context) {
            JobInputs.Loaded in = inputs.load(context);
            Job job = in.job();
            Dataset dataset = in.dataset();
            QueryPlanner.Planned planned = in.planned();
            CovarianceSpec spec = planned.covariance();
            int d = Math.toIntExact(dataset.cols());
            long n = dataset.rows();
            double[] sums = new double[d];
            boolean center = spec.mean() != null;
            double[] c = inputs.gram(dataset, context, 0.8, !center ? null : (dense, count) -> {
                for (int r = 0; r < count; r++) {
                    for (int j = 0; j < d; j++) {
                        sums[j] += dense[r * d + j];
                    }
                }
            });
            boolean nPublic = dataset.neighbouring() == Neighbouring.REPLACE_ONE;
            double b2 = dataset.rowNormBound() * dataset.rowNormBound();
            double upper = nPublic ? n * b2 : Double.POSITIVE_INFINITY;
            NoiseSource random = NoiseSources.secure();
            CovarianceRelease release;
            UUID releaseId = null;
            if (spec.eigenSampling() != null) {
                release = spec.eigenSampling().release(c, nPublic ? n : Double.POSITIVE_INFINITY, !spec.pca(), random);
            } else {
                double[] noisy = spec.analyzeGauss() != null ? spec.analyzeGauss().release(c, random)
                        : spec.wishart().release(c, random);
                if (!spec.pca() && !center) {
                    // The raw noisy matrix is the mechanism's output: keep it as a release that answers
                    // directional variance for free (the same path as the sketches).
                    releaseId = storeRelease(job, dataset, planned, noisy, d);
                }
                if (center) {
                    double[] s = spec.mean().release(sums, random);
                    for (int i = 0; i < d; i++) {
                        for (int j = 0; j < d; j++) {
                            noisy[i * d + j] -= s[i] * s[j] / n;
                        }
                    }
                }
                context.progress(0.9);
                release = PostProcessing.psdAndTopK(noisy, d, spec.k(), upper, !spec.pca());
            }
            Map<String, Object> body = in.resultHead(kind.name());
            body.put("centered", center);
            body.put("scale", center ? "sum over rows of (x − mean)(x − mean)ᵀ" : "sum over rows of x xᵀ (XᵀX)");
            if (nPublic) {
                body.put("rows", n);
            }
            body.put("noise", planned.plan().noise());
            body.put("eigenvalues", release.eigenvalues());
            if (spec.pca()) {
                body.put("k", release.k());
                body.put("components", RowMajor.rows(release.components(), d, release.k()));
                return new JobOutput(inputs.toJson(body), "components", new int[] {d, release.k()},
                        release.components());
            }
            if (releaseId != null) {
                body.put("releaseId", releaseId);
                body.put("release", "/v1/releases/" + releaseId);
            }
            body.put("covariance", RowMajor.rows(release.covariance(), d, d));
            return new JobOutput(inputs.toJson(body), "covariance", new int[] {d, d}, release.covariance());
        }

        private UUID storeRelease(Job job, Dataset dataset, QueryPlanner.Planned planned, double[] noisy, int d) {
            CovarianceSpec spec = planned.covariance();
            Map<String, Object> meta = new LinkedHashMap<>();
            if (spec.analyzeGauss() != null) {
                meta.put("sigma", spec.analyzeGauss().sigma());
                meta.put("granularity", spec.analyzeGauss().granularity());
            } else {
                meta.put("degrees", spec.wishart().degrees());
                meta.put("b2", dataset.rowNormBound() * dataset.rowNormBound());
                meta.put("granularity", spec.wishart().granularity());
            }
            meta.put("nu", 0.05);
            UUID id = UUID.randomUUID();
            releases.store(new NewRelease(id, dataset.id(), job.id(), ReleaseKind.COVARIANCE,
                    planned.plan().mechanism(), job.parameters(),
                    inputs.toJson(QueryService.lossDocument(planned.plan())), meta, d, d, noisy, false));
            return id;
        }
    }
}
