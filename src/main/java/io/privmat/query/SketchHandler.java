package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.EdgeChunk;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.mechanism.sketch.JlParameters;
import io.privmat.release.NewRelease;
import io.privmat.release.ReleaseKind;
import io.privmat.release.ReleaseService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Runs SKETCH jobs: builds the planned sketch from the data (edges for a graph, the streamed Gram
 * for a matrix), stores it as a release tied to the job, and returns its id. The release is served
 * only once the job is DONE.
 */
@Component
class SketchHandler implements JobHandler {

    private final JobInputs inputs;
    private final ReleaseService releases;

    SketchHandler(JobInputs inputs, ReleaseService releases) {
        this.inputs = inputs;
        this.releases = releases;
    }

    @Override
    public String kind() {
        return QueryKind.SKETCH.name();
    }

    @Override
    public JobOutput run(JobContext context) {
        JobInputs.Loaded in = inputs.load(context);
        Job job = in.job();
        Dataset dataset = in.dataset();
        QueryPlanner.Planned planned = in.planned();
        SketchSpec spec = planned.sketch();
        UUID releaseId = UUID.randomUUID();
        Map<String, Object> meta = new LinkedHashMap<>();
        NewRelease release;
        String lossJson = inputs.toJson(QueryService.lossDocument(planned.plan()));
        if (dataset.kind() == DatasetKind.GRAPH) {
            int n = Math.toIntExact(dataset.rows());
            long edges = dataset.nnz();
            long[] seen = {0};
            double[] sketch = spec.graph().release(visitor -> inputs.rows().forEachEdgeChunk(dataset.id(), (EdgeChunk chunk) -> {
                for (int i = 0; i < chunk.count(); i++) {
                    visitor.edge(chunk.u()[i], chunk.v()[i], chunk.weight()[i]);
                }
                seen[0] += chunk.count();
                context.progress(0.9 * seen[0] / Math.max(1, edges));
            }), NoiseSources.secure());
            jl(meta, spec.graph().parameters());
            meta.put("vertices", n);
            release = new NewRelease(releaseId, dataset.id(), job.id(), ReleaseKind.GRAPH_SKETCH, "JL",
                    job.parameters(), lossJson, meta, spec.graph().parameters().r(), n, sketch, true);
        } else {
            int d = Math.toIntExact(dataset.cols());
            double[] gram = inputs.gram(dataset, context, 0.8, null);
            if (spec.matrix() != null) {
                double[] m = spec.matrix().release(gram, NoiseSources.secure());
                jl(meta, spec.matrix().parameters());
                release = new NewRelease(releaseId, dataset.id(), job.id(), ReleaseKind.MATRIX_SKETCH, "JL",
                        job.parameters(), lossJson, meta, spec.matrix().parameters().r(), d, m, false);
            } else {
                double[] c = spec.wishart().release(gram, NoiseSources.secure());
                meta.put("degrees", spec.wishart().degrees());
                meta.put("b2", dataset.rowNormBound() * dataset.rowNormBound());
                meta.put("granularity", spec.wishart().granularity());
                meta.put("nu", spec.nu());
                release = new NewRelease(releaseId, dataset.id(), job.id(), ReleaseKind.MATRIX_SKETCH, "WISHART",
                        job.parameters(), lossJson, meta, d, d, c, false);
            }
        }
        releases.store(release);
        Map<String, Object> body = in.resultHead(QueryKind.SKETCH.name());
        body.put("releaseId", releaseId);
        body.put("release", "/v1/releases/" + releaseId);
        body.put("releaseKind", release.kind().name());
        body.put("meta", meta);
        return JobOutput.json(inputs.toJson(body));
    }

    private static void jl(Map<String, Object> meta, JlParameters p) {
        meta.put("r", p.r());
        meta.put("floor", p.floor());
        meta.put("epsilon", p.epsilon());
        meta.put("delta", p.delta());
        meta.put("eta", p.eta());
        meta.put("nu", p.nu());
        meta.put("b2", p.b2());
    }
}
