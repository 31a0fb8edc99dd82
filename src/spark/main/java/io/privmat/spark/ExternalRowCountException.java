package io.privmat.spark;

/**
 * A pass met another number of rows than the owner declared (REPLACE_ONE). The job fails and keeps
 * its charge; the message names the declared count only (public), never the count met.
 */
public final class ExternalRowCountException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ExternalRowCountException(long declared) {
        super("the external source does not hold the declared " + declared + " rows");
    }
}
