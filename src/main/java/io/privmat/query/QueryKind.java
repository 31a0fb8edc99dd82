package io.privmat.query;

import java.util.List;

/** The catalogue of query kinds and the mechanisms each accepts. */
enum QueryKind {
    /** Noisy per-column sums Σᵢ xᵢ of a matrix (the cheap end-to-end query). */
    COLUMN_SUMS(List.of("GAUSSIAN", "LAPLACE"));

    final List<String> mechanisms;

    QueryKind(List<String> mechanisms) {
        this.mechanisms = mechanisms;
    }
}
