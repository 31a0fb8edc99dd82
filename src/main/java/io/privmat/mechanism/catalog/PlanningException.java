package io.privmat.mechanism.catalog;

import io.privmat.privacy.PrivacyArgumentException;
import java.util.Collections;
import java.util.LinkedHashMap;
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
    private final Map<String, Object> properties;

    public PlanningException(Reason reason, String message, Map<String, ?> properties) {
        super(message);
        this.reason = reason;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    public Reason reason() {
        return reason;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    /** A 400 naming the parameter and its allowed range. */
    public static PlanningException invalid(String parameter, String allowedRange, String message) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("parameter", parameter);
        p.put("allowedRange", allowedRange);
        return new PlanningException(Reason.INVALID_PARAMETER, message, p);
    }

    static PlanningException of(PrivacyArgumentException e) {
        return invalid(e.parameter(), e.allowedRange(), e.getMessage());
    }
}
