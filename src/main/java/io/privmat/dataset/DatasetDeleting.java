package io.privmat.dataset;

import java.util.UUID;

/**
 * Published synchronously inside the transaction that deletes a dataset, after its row is locked
 * and before it is deleted: listeners settle what depends on it (the job engine cancels its
 * unfinished jobs and refunds those that have not read data), and they commit or roll back with
 * the deletion.
 */
public record DatasetDeleting(UUID datasetId) {}
