package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.DatasetService;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.mechanism.linalg.GramAccumulator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every query handler starts from: its dataset, the plan re-made from the job's stored request
 * (exactly what was charged), the stored rows, and the common head of its result document.
 */
@Component
class JobInputs {

    private final DatasetService datasets;
    private final DatasetRows rows;
    private final QueryPlanner planner;
    private final JsonMapper json;

    JobInputs(DatasetService datasets, DatasetRows rows, QueryPlanner planner, JsonMapper json) {
        this.datasets = datasets;
        this.rows = rows;
        this.planner = planner;
        this.json = json;
    }

    /** A job with its dataset and re-made plan. */
    record Loaded(Job job, Dataset dataset, QueryPlanner.Planned planned) {

        /** The fields every result starts with; handlers append their own. */
        Map<String, Object> resultHead(String kind) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("jobId", job.id());
            body.put("datasetId", dataset.id());
            body.put("kind", kind);
            body.put("mechanism", planned.plan().mechanism());
            body.put("neighbouring", dataset.neighbouring().name());
            body.put("rowNormBound", dataset.rowNormBound());
            body.put("loss", QueryService.lossDocument(planned.plan()));
            return body;
        }
    }

    /** Per-chunk hook for work done in the same pass as the Gram (e.g. column sums). */
    interface RowBlockVisitor {
        void block(double[] dense, int rowCount);
    }

    Loaded load(JobContext context) {
        Job job = context.job();
        Dataset dataset = datasets.get(job.datasetId());
        return new Loaded(job, dataset, planner.plan(dataset,
                json.readValue(job.parameters(), StoredRequest.class).toRequest()));
    }

    /** XᵀX streamed from the stored chunks in one pass; progress runs to {@code progressShare}. */
    double[] gram(Dataset dataset, JobContext context, double progressShare, @Nullable RowBlockVisitor also) {
        int d = Math.toIntExact(dataset.cols());
        long n = dataset.rows();
        GramAccumulator gram = new GramAccumulator(d);
        rows.forEachMatrixChunk(dataset.id(), chunk -> {
            double[] dense = chunk.toDense();
            gram.addRows(dense, 0, chunk.rowCount());
            if (also != null) {
                also.block(dense, chunk.rowCount());
            }
            context.progress(progressShare * gram.rows() / Math.max(1, n));
        });
        return gram.result();
    }

    DatasetRows rows() {
        return rows;
    }

    String toJson(Object value) {
        return json.writeValueAsString(value);
    }
}
