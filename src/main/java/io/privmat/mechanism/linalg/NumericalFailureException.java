package io.privmat.mechanism.linalg;

/** A factorisation failed. Data-dependent: callers fail the job generically and keep the charge. */
public final class NumericalFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NumericalFailureException(String message) {
        super(message);
    }
}
