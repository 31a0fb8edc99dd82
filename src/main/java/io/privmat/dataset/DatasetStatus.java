package io.privmat.dataset;

/** Lifecycle of a dataset: created without data, then data uploaded exactly once. */
public enum DatasetStatus {
    EMPTY,
    READY
}
