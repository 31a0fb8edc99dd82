package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.MatrixChunk;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.noise.NoiseSources;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs COLUMN_SUMS: streams the row chunks (one at a time), sums each column with Neumaier's
 * compensated summation, and releases the sums through the planned mechanism.
 */
@Component
class ColumnSumsHandler implements JobHandler {

    private final DatasetService datasets;
    private final DatasetRows rows;
    private final QueryPlanner planner;
    private final JsonMapper json;

    ColumnSumsHandler(DatasetService datasets, DatasetRows rows, QueryPlanner planner, JsonMapper json) {
        this.datasets = datasets;
        this.rows = rows;
        this.planner = planner;
        this.json = json;
    }

    @Override
    public String kind() {
        return QueryKind.COLUMN_SUMS.name();
    }

    @Override
    public JobOutput run(JobContext context) {
        Job job = context.job();
        Dataset dataset = datasets.get(job.datasetId());
        QueryRequest request = json.readValue(job.parameters(), StoredRequest.class).toRequest();
        QueryPlanner.Planned planned = planner.plan(dataset, request);
        int d = Math.toIntExact(dataset.cols());
        double[] sum = new double[d];
        double[] compensation = new double[d];
        long totalRows = dataset.rows();
        long[] seen = {0};
        rows.forEachMatrixChunk(dataset.id(), (MatrixChunk chunk) -> {
            chunk.forEachEntry((row, col, value) -> {
                double t = sum[col] + value;
                compensation[col] += Math.abs(sum[col]) >= Math.abs(value)
                        ? (sum[col] - t) + value : (value - t) + sum[col];
                sum[col] = t;
            });
            seen[0] += chunk.rowCount();
            context.progress(0.95 * seen[0] / Math.max(1, totalRows));
        });
        for (int c = 0; c < d; c++) {
            sum[c] += compensation[c];
        }
        double[] released = planned.release().apply(sum, NoiseSources.secure());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jobId", job.id());
        body.put("datasetId", dataset.id());
        body.put("kind", planned.plan().kind());
        body.put("mechanism", planned.plan().mechanism());
        body.put("neighbouring", dataset.neighbouring().name());
        body.put("rowNormBound", dataset.rowNormBound());
        body.put("loss", QueryService.lossDocument(planned.plan()));
        body.put("noise", planned.plan().noise());
        body.put("columnSums", released);
        return new JobOutput(json.writeValueAsString(body), "columnSums", new int[] {d}, released);
    }
}
