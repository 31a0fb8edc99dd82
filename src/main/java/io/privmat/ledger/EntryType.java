package io.privmat.ledger;

/** Kinds of ledger entries. */
public enum EntryType {
    /** A job was admitted: its cost is held against the budget (counts as spent). */
    RESERVE,
    /** A worker durably started reading the data: the reservation is final, whatever happens next. */
    COMMIT,
    /** The job was cancelled or failed before reading any data: the reservation is refunded. */
    REFUND
}
