package io.privmat.dataset;

/**
 * The neighbouring relation of a dataset, fixed at creation (architecture.md, "Privacy model";
 * mechanisms.md §1.2).
 */
public enum Neighbouring {
    /** Bounded DP: one privacy unit is replaced by another; the size n is public. The default. */
    REPLACE_ONE,
    /** Unbounded DP: one privacy unit is added or removed; the size n is itself private. */
    ADD_REMOVE
}
