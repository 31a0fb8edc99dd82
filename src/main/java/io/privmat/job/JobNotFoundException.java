package io.privmat.job;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.util.Map;
import java.util.UUID;

/** No job with this id. */
public final class JobNotFoundException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    public JobNotFoundException(UUID id) {
        super(ProblemType.JOB_NOT_FOUND, "No job with id " + id + ".", Map.of("jobId", id.toString()));
    }
}
