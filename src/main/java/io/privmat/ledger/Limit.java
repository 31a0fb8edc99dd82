package io.privmat.ledger;

/**
 * Which limit pays a subject's queries on a dataset, and so which one a refusal names
 * (docs/accounting.md §10 "Allocations"). Every query is also checked against the dataset's total.
 */
public enum Limit {
    /** The subject's own allocation (and the total). */
    ALLOCATION,
    /** The unallocated pool: what the total leaves after every allocation (and the total). */
    POOL,
    /** The dataset's total. */
    TOTAL
}
