package io.privmat.dataset.ingest;

/** Receives the rows a parser reads, one at a time (the arrays are reused by the caller). */
interface RowSink {

    /** A dense row of the sink's width. */
    void denseRow(double[] row);

    /** A sparse row: {@code n} entries with distinct column indices in [0, width). */
    default void sparseRow(int n, int[] columns, double[] values) {
        throw new UnsupportedOperationException("this sink takes dense rows only");
    }
}
