package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.MatrixChunk;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.noise.NoiseSources;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Runs COLUMN_SUMS: streams the row chunks (one at a time), sums each column with Neumaier's
 * compensated summation, and releases the sums through the planned mechanism.
 */
@Component
class ColumnSumsHandler implements JobHandler {

    private final JobInputs inputs;

    ColumnSumsHandler(JobInputs inputs) {
        this.inputs = inputs;
    }

    @Override
    public String kind() {
        return QueryKind.COLUMN_SUMS.name();
    }

    @Override
    public JobOutput run(JobContext context) {
        JobInputs.Loaded in = inputs.load(context);
        Dataset dataset = in.dataset();
        QueryPlanner.Planned planned = in.planned();
        int d = Math.toIntExact(dataset.cols());
        double[] sum = new double[d];
        double[] compensation = new double[d];
        long totalRows = dataset.rows();
        long[] seen = {0};
        inputs.rows().forEachMatrixChunk(dataset.id(), (MatrixChunk chunk) -> {
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
        Map<String, Object> body = in.resultHead(planned.plan().kind());
        body.put("noise", planned.plan().noise());
        body.put("columnSums", released);
        return new JobOutput(inputs.toJson(body), "columnSums", new int[] {d}, released);
    }
}
