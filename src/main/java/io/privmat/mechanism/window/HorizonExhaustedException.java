package io.privmat.mechanism.window;

/**
 * The stream has released its last block (its public horizon); nothing more can be appended or
 * released. A conflict with the stream's state, not bad input (HTTP 409 in the service).
 */
public final class HorizonExhaustedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public HorizonExhaustedException(String message) {
        super(message);
    }
}
