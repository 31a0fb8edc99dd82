package io.privmat.dataset.ingest;

/** Receives the dense rows a parser reads, one at a time (the array is reused by the caller). */
interface RowSink {

    void denseRow(double[] row);
}
