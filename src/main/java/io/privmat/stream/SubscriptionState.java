package io.privmat.stream;

/** Lifecycle of a standing subscription. Its charge is final from creation in every state. */
public enum SubscriptionState {
    /** Releases one window estimate per completed block. */
    ACTIVE,
    /** Cancelled by its subscriber or the dataset's owner: no further releases. */
    CANCELLED,
    /** The stream reached its horizon: no further blocks. */
    FINISHED,
    /** Stopped by the service (its stored plan no longer rebuilds to what was charged): no further releases. */
    FAILED
}
