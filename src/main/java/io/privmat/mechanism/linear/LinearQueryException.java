package io.privmat.mechanism.linear;

/**
 * A workload, domain, strategy or request for linear queries that cannot be accepted, decided from
 * public values only (nothing is charged). The message names public values only; {@link #field()}
 * names the offending input. The service maps {@link Reason#TOO_LARGE} to 422 and the others to 400.
 */
public final class LinearQueryException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Why the input was refused. */
    public enum Reason {
        /** Dimensions do not agree (matrix length, box arity, data vector length, attribute index). */
        SHAPE_MISMATCH,
        /** A NaN or infinite entry. */
        NOT_FINITE,
        /** No queries, no attributes, an empty attribute set. */
        EMPTY,
        /** Over one of the limits in {@link LinearLimits}. */
        TOO_LARGE,
        /** A value out of its range (a size below 1, an interval with lo &gt; hi, an unknown option). */
        INVALID,
        /** The mechanism does not accept this budget form or workload. */
        UNSUPPORTED
    }

    private final Reason reason;
    private final String field;

    public LinearQueryException(Reason reason, String field, String message) {
        super(message);
        this.reason = reason;
        this.field = field;
    }

    public Reason reason() {
        return reason;
    }

    /** The input the message is about, e.g. {@code workload.matrix} or {@code domain.sizes[2]}. */
    public String field() {
        return field;
    }

    static LinearQueryException tooLarge(String field, String what, long value, long limit) {
        return new LinearQueryException(Reason.TOO_LARGE, field,
                what + " is " + value + ", above the limit of " + limit);
    }

    static LinearQueryException invalid(String field, String message) {
        return new LinearQueryException(Reason.INVALID, field, message);
    }

    static LinearQueryException shape(String field, String message) {
        return new LinearQueryException(Reason.SHAPE_MISMATCH, field, message);
    }
}
