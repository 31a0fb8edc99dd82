package io.privmat.job;

/**
 * A job's stored plan does not rebuild into the loss that was reserved for it (a changed mechanism,
 * calibration or stored document), or cannot be built on this replica (a public strategy it needs
 * could not be computed). The job fails before data access and its charge is refunded. The messages
 * name public values only.
 */
public final class PlanMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;
    private final String publicMessage;

    public PlanMismatchException(String message) {
        this(message, "PLAN_MISMATCH", "The stored plan does not rebuild into the reserved privacy loss; nothing was "
                + "read.");
    }

    /**
     * @param code the job's error code
     * @param publicMessage the job's error message (public values only)
     */
    public PlanMismatchException(String message, String code, String publicMessage) {
        super(message);
        this.code = code;
        this.publicMessage = publicMessage;
    }

    /** The job's error code (PLAN_MISMATCH, or STRATEGY_FAILED). */
    public String code() {
        return code;
    }

    /** The job's error message. */
    public String publicMessage() {
        return publicMessage;
    }
}
