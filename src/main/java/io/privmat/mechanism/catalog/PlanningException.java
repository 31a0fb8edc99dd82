package io.privmat.mechanism.catalog;

import io.privmat.json.ProblemProperties;
import io.privmat.privacy.PrivacyArgumentException;
import java.util.Map;

/**
 * A query that cannot be planned, decided from public parameters only (before anything is charged).
 * The web layer maps each {@link Reason} to its problem type; the message names public values only.
 */
public final class PlanningException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why a plan was refused. */
    public enum Reason {
        INVALID_PARAMETER, INCOMPATIBLE_ACCOUNTING, WRONG_DATASET_KIND, DATASET_TOO_LARGE, GRAPH_TOO_SMALL,
        /** A linear-query workload or its strategy is over a public size limit (422). */
        WORKLOAD_TOO_LARGE,
        /** The public strategy the plan needs is being computed; ask again when it is done (409). */
        STRATEGY_NOT_READY,
        /** The public strategy the plan needs could not be computed (422). */
        STRATEGY_FAILED
    }

    private final Reason reason;
    private final ProblemProperties properties;

    public PlanningException(Reason reason, String message, ProblemProperties properties) {
        super(message);
        this.reason = reason;
        this.properties = properties;
    }

    /**
     * Properties given as a map, in its iteration order.
     *
     * @throws IllegalArgumentException when a value is not one JSON can carry
     */
    public PlanningException(Reason reason, String message, Map<String, ?> properties) {
        this(reason, message, ProblemProperties.of(properties));
    }

    public Reason reason() {
        return reason;
    }

    public ProblemProperties properties() {
        return properties;
    }

    /** A 400 naming the parameter and its allowed range. */
    public static PlanningException invalid(String parameter, String allowedRange, String message) {
        return new PlanningException(Reason.INVALID_PARAMETER, message,
                ProblemProperties.of("parameter", parameter, "allowedRange", allowedRange));
    }

    static PlanningException of(PrivacyArgumentException e) {
        return invalid(e.parameter(), e.allowedRange(), e.getMessage());
    }
}
