package io.privmat.mechanism.analytics;

/**
 * A request parameter of an analytic is invalid for this release (an index out of range, a rank
 * larger than d, …). The message names only public values; the web layer answers 400 naming the
 * parameter.
 */
public final class AnalyticsArgumentException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String parameter;
    private final String allowedRange;

    public AnalyticsArgumentException(String parameter, String allowedRange, String message) {
        super(message);
        this.parameter = parameter;
        this.allowedRange = allowedRange;
    }

    public String parameter() {
        return parameter;
    }

    public String allowedRange() {
        return allowedRange;
    }

    static void check(boolean ok, String parameter, String allowedRange, String message) {
        if (!ok) {
            throw new AnalyticsArgumentException(parameter, allowedRange, message);
        }
    }

    /** level ∈ [0.5, 0.999999]. */
    static void level(double level) {
        check(level >= 0.5 && level <= 0.999999, "level", "[0.5, 0.999999]",
                "level must be a coverage probability in [0.5, 0.999999]");
    }
}
