package io.privmat.query.execution;

import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.DatasetService;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.query.QueryPlans;
import java.util.UUID;

/** Test access to a dataset's rows exactly as a query job reads them ({@link StoredDataAccess}), progress ignored. */
public final class StoredRows {

    private StoredRows() {}

    public static DataAccess of(DatasetService datasets, DatasetRows rows, UUID datasetId) {
        JobContext context = new JobContext() {
            @Override
            public Job job() {
                throw new UnsupportedOperationException();
            }

            @Override
            public void progress(double fraction) {
                // not reported
            }
        };
        return new StoredDataAccess(datasetId, rows, context, QueryPlans.facts(datasets.get(datasetId)));
    }
}
