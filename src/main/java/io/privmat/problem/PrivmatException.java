package io.privmat.problem;

import io.privmat.json.ProblemProperties;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Root of privmat's own exceptions. Each carries a {@link ProblemType} and optional extension
 * properties ({@link ProblemProperties}, e.g. {@code parameter}, {@code line}) but no HTTP types.
 * Properties given as a map are taken in its iteration order.
 *
 * <p>Messages and properties must never contain data values or data-dependent outcomes: only
 * public parameters and positions in an upload.
 */
public class PrivmatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ProblemType type;
    private final ProblemProperties properties;

    public PrivmatException(ProblemType type, String detail) {
        this(type, detail, ProblemProperties.none(), null);
    }

    public PrivmatException(ProblemType type, String detail, ProblemProperties properties) {
        this(type, detail, properties, null);
    }

    public PrivmatException(ProblemType type, String detail, ProblemProperties properties, @Nullable Throwable cause) {
        super(detail, cause);
        this.type = type;
        this.properties = properties;
    }

    /** @throws IllegalArgumentException when a value is not one JSON can carry */
    public PrivmatException(ProblemType type, String detail, Map<String, ?> properties) {
        this(type, detail, ProblemProperties.of(properties), null);
    }

    /** @throws IllegalArgumentException when a value is not one JSON can carry */
    public PrivmatException(ProblemType type, String detail, Map<String, ?> properties, @Nullable Throwable cause) {
        this(type, detail, ProblemProperties.of(properties), cause);
    }

    public ProblemType type() {
        return type;
    }

    public ProblemProperties properties() {
        return properties;
    }

    /** A 400 for a request parameter outside its allowed range. */
    public static PrivmatException invalidParameter(String parameter, String allowedRange, String detail) {
        ProblemProperties props = ProblemProperties.of("parameter", parameter);
        if (allowedRange != null) {
            props = props.with("allowedRange", allowedRange);
        }
        return new PrivmatException(ProblemType.INVALID_PARAMETER, detail, props);
    }
}
