package io.privmat.release;

import io.privmat.mechanism.catalog.Facts;
import java.util.UUID;

/**
 * A release to store: its provenance (dataset, job, mechanism, public parameters, loss), the public
 * facts its estimators need ({@code meta}) and the data, rows × cols row-major.
 *
 * @param float32 store as float32 (large graph sketches; a deterministic post-processing) or float64
 */
public record NewRelease(UUID id, UUID datasetId, UUID jobId, ReleaseKind kind, String mechanism,
        String parametersJson, String lossJson, Facts meta, int rows, int cols, double[] data,
        boolean float32) {}
