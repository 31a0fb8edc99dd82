package io.privmat.dataset;

/**
 * Published inside the transaction that inserts a dataset, after its row (and a declared vertex
 * universe) are written: listeners add what a kind needs at creation (a stream's state) in the same
 * transaction, so the dataset exists with it or not at all.
 */
public record DatasetCreated(Dataset dataset) {}
