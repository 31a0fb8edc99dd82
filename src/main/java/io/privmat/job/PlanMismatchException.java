package io.privmat.job;

/**
 * A job's stored plan does not rebuild into the loss that was reserved for it (a changed mechanism,
 * calibration or stored document). The job fails before data access and its charge is refunded. The
 * message names public values only.
 */
public final class PlanMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PlanMismatchException(String message) {
        super(message);
    }
}
