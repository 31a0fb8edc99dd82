package io.privmat.problem;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Root of privmat's own exceptions. Each carries a {@link ProblemType} and optional extension
 * properties (e.g. {@code parameter}, {@code line}) but no HTTP types.
 *
 * <p>Messages and properties must never contain data values or data-dependent outcomes: only
 * public parameters and positions in an upload.
 */
public class PrivmatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ProblemType type;
    private final Map<String, Object> properties;

    public PrivmatException(ProblemType type, String detail) {
        this(type, detail, Map.of(), null);
    }

    public PrivmatException(ProblemType type, String detail, Map<String, ?> properties) {
        this(type, detail, properties, null);
    }

    public PrivmatException(ProblemType type, String detail, Map<String, ?> properties, Throwable cause) {
        super(detail, cause);
        this.type = type;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    public ProblemType type() {
        return type;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    /** A 400 for a request parameter outside its allowed range. */
    public static PrivmatException invalidParameter(String parameter, String allowedRange, String detail) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("parameter", parameter);
        if (allowedRange != null) {
            props.put("allowedRange", allowedRange);
        }
        return new PrivmatException(ProblemType.INVALID_PARAMETER, detail, props);
    }
}
