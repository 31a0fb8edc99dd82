package io.privmat.dataset;

/**
 * The neighbouring relation of a dataset, fixed at creation (README.md, "Privacy model in one
 * paragraph"; docs/mechanisms/neighbouring-and-sensitivities.md).
 */
public enum Neighbouring {
    /** Bounded DP: one privacy unit is replaced by another; the size n is public. The default. */
    REPLACE_ONE,
    /** Unbounded DP: one privacy unit is added or removed; the size n is itself private. */
    ADD_REMOVE
}
