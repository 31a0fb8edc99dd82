package io.privmat.mechanism.window;

/**
 * An append was refused before anything was added: a row of the wrong width or with a non-finite
 * value, an edge with a bad vertex or weight, or more rows than the horizon leaves room for.
 * Bad input (HTTP 400/422 in the service); the stream's state is unchanged.
 */
public final class InvalidStreamInputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final long index;

    /**
     * @param index the 0-based position of the offending row or edge in the batch, or −1 for the batch
     */
    public InvalidStreamInputException(long index, String message) {
        super(index >= 0 ? "item " + index + ": " + message : message);
        this.index = index;
    }

    /** Position of the offending row or edge in the batch, or −1. */
    public long index() {
        return index;
    }
}
