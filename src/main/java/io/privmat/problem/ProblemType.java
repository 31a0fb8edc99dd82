package io.privmat.problem;

/**
 * The problem catalogue: every error the API returns has one of these stable types
 * ({@code https://privmat.io/problems/<slug>}), a fixed title and an HTTP status.
 */
public enum ProblemType {
    INVALID_PARAMETER("invalid-parameter", "Invalid parameter", 400),
    UNAUTHENTICATED("unauthenticated", "Authentication required", 401),
    FORBIDDEN("forbidden", "Forbidden", 403),
    MALFORMED_REQUEST("malformed-request", "Malformed request", 400),
    INVALID_DATA("invalid-data", "Invalid data", 422),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency key reused with a different request", 422),
    INCOMPATIBLE_ACCOUNTING("incompatible-accounting", "Mechanism not chargeable under this accounting", 422),
    GRAPH_TOO_SMALL("graph-too-small", "Graph too small for the mechanism", 422),
    DATASET_TOO_LARGE("dataset-too-large", "Dataset too large for the mechanism", 422),
    DATASET_NOT_FOUND("dataset-not-found", "Dataset not found", 404),
    NOT_FOUND("not-found", "Not found", 404),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", 405),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", 406),
    JOB_NOT_FOUND("job-not-found", "Job not found", 404),
    WORKLOAD_NOT_FOUND("workload-not-found", "Workload not found", 404),
    DATA_ALREADY_UPLOADED("data-already-uploaded", "Data already uploaded", 409),
    DATASET_NOT_READY("dataset-not-ready", "Dataset has no data", 409),
    BUDGET_EXHAUSTED("budget-exhausted", "Privacy budget exhausted", 409),
    ALLOCATION_CONFLICT("allocation-conflict", "Allocation conflicts with the budget", 409),
    JOB_NOT_FINISHED("job-not-finished", "Job not finished", 409),
    JOB_ALREADY_FINISHED("job-already-finished", "Job already finished", 409),
    UPLOAD_IN_PROGRESS("upload-in-progress", "Upload in progress", 409),
    WRONG_DATASET_KIND("wrong-dataset-kind", "Wrong dataset kind", 409),
    EXTERNAL_ENGINE_UNAVAILABLE("external-engine-unavailable", "No engine for external data", 409),
    SUBJECT_ROLE_CONFLICT("subject-role-conflict", "Subject already has another role", 409),
    SUBSCRIPTION_NOT_FOUND("subscription-not-found", "Subscription not found", 404),
    SUBSCRIPTION_NOT_ACTIVE("subscription-not-active", "Subscription not active", 409),
    STREAM_HORIZON_REACHED("stream-horizon-reached", "Stream horizon reached", 409),
    EVENT_TIME_OUT_OF_ORDER("event-time-out-of-order", "Event time out of order", 409),
    PAYLOAD_TOO_LARGE("payload-too-large", "Payload too large", 413),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", 415),
    REQUEST_TIMEOUT("request-timeout", "Request body too slow", 408),
    RATE_LIMITED("rate-limited", "Too many requests", 429),
    INTERNAL_ERROR("internal-error", "Internal error", 500),
    SERVICE_UNAVAILABLE("service-unavailable", "Service unavailable", 503),
    TOO_MANY_UPLOADS("too-many-uploads", "Too many concurrent uploads", 503),
    WORKLOAD_TOO_LARGE("workload-too-large", "Workload or strategy too large", 422),
    STRATEGY_NOT_READY("strategy-not-ready", "Strategy being computed", 409),
    STRATEGY_FAILED("strategy-failed", "Strategy could not be computed", 422),
    STRATEGY_NOT_FOUND("strategy-not-found", "Strategy not found", 404),
    STORAGE_QUOTA_EXCEEDED("storage-quota-exceeded", "Storage quota exceeded", 409),
    COMPUTATION_QUOTA_EXCEEDED("computation-quota-exceeded", "Too many computations for this caller", 429);

    /** Base of every problem type URI. */
    public static final String BASE_URI = "https://privmat.io/problems/";

    private final String slug;
    private final String title;
    private final int status;

    ProblemType(String slug, String title, int status) {
        this.slug = slug;
        this.title = title;
        this.status = status;
    }

    public String slug() {
        return slug;
    }

    public String uri() {
        return BASE_URI + slug;
    }

    public String title() {
        return title;
    }

    public int status() {
        return status;
    }
}
