package io.privmat.privacy;

/**
 * A privacy parameter is missing, not finite or out of its allowed range.
 *
 * <p>The message names the parameter, its allowed range and the offending value (the value is
 * a public parameter chosen by the caller, never a data value).
 */
public final class PrivacyArgumentException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String parameter;
    private final String allowedRange;

    public PrivacyArgumentException(String parameter, String allowedRange, String message) {
        super(message);
        this.parameter = parameter;
        this.allowedRange = allowedRange;
    }

    /** The name of the offending parameter, e.g. {@code epsilon}. */
    public String parameter() {
        return parameter;
    }

    /** The allowed range in interval notation, e.g. {@code (0, 100]}. */
    public String allowedRange() {
        return allowedRange;
    }
}
