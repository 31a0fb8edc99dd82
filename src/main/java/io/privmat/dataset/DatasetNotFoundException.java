package io.privmat.dataset;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.util.Map;
import java.util.UUID;

/** No dataset with this id. */
public final class DatasetNotFoundException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    public DatasetNotFoundException(UUID id) {
        super(ProblemType.DATASET_NOT_FOUND, "No dataset with id " + id + ".", Map.of("datasetId", id.toString()));
    }
}
