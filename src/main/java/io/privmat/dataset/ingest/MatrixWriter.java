package io.privmat.dataset.ingest;

import io.privmat.dataset.storage.ChunkCodec;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Receives validated rows, groups them into chunks of about {@code chunkBytes}, and hands each full
 * chunk to the upload's writer thread ({@link ChunkPipeline}), which clips each row to the public
 * L2 bound, encodes the chunk dense or sparse, whichever is smaller, and stores it while the parser
 * fills the other buffer. Memory: two chunk buffers and one encoding buffer, whatever the number
 * of rows.
 */
final class MatrixWriter implements RowSink {

    /** Where encoded chunks go (the upload's transaction); called on the writer thread. */
    @FunctionalInterface
    interface ChunkStore {
        void insert(int chunkNo, long firstRow, int rows, String encoding, long nnz, ByteBuffer payload);
    }

    private final ChunkStore store;
    private final ChunkPipeline pipeline;
    private final int cols;
    private final double bound;
    private final int rowsPerChunk;
    private double[] filling;
    private double[] spare;
    private int bufferedRows;
    private int chunkNo;
    private long rows;
    // Used by the writer thread only; read after ChunkPipeline.await (which orders the accesses).
    private final ByteBuffer encoded;
    private long nnz;
    private long clipped;
    private int denseChunks;
    private int sparseChunks;

    MatrixWriter(ChunkStore store, ChunkPipeline pipeline, int cols, double bound, long chunkBytes) {
        this.store = store;
        this.pipeline = pipeline;
        this.cols = cols;
        this.bound = bound;
        this.rowsPerChunk = (int) Math.max(1, Math.min(1 << 20, chunkBytes / (8L * cols)));
        this.filling = new double[rowsPerChunk * cols];
        this.spare = new double[rowsPerChunk * cols];
        this.encoded = ByteBuffer.allocate(rowsPerChunk * cols * 8);
    }

    /** Adds a dense row of length {@code cols} (copied). */
    @Override
    public void denseRow(double[] row) {
        System.arraycopy(row, 0, filling, bufferedRows * cols, cols);
        advance();
    }

    /** Adds a sparse row: {@code n} entries with distinct column indices in [0, cols). */
    @Override
    public void sparseRow(int n, int[] columns, double[] values) {
        int base = bufferedRows * cols;
        Arrays.fill(filling, base, base + cols, 0.0);
        for (int k = 0; k < n; k++) {
            filling[base + columns[k]] = values[k];
        }
        advance();
    }

    private void advance() {
        bufferedRows++;
        rows++;
        if (bufferedRows == rowsPerChunk) {
            flush();
        }
    }

    /** Hands the filled buffer to the writer thread and takes the other one (free once the previous write ended). */
    private void flush() {
        if (bufferedRows == 0) {
            return;
        }
        double[] chunk = filling;
        int chunkRows = bufferedRows;
        long firstRow = rows - chunkRows;
        int no = chunkNo++;
        pipeline.submit(() -> write(chunk, chunkRows, firstRow, no));
        filling = spare;
        spare = chunk;
        bufferedRows = 0;
    }

    /** On the writer thread: clip, count, encode and store one chunk. */
    private void write(double[] chunk, int chunkRows, long firstRow, int no) {
        for (int r = 0; r < chunkRows; r++) {
            clip(chunk, r * cols);
        }
        int count = chunkRows * cols;
        long chunkNnz = 0;
        for (int i = 0; i < count; i++) {
            if (chunk[i] != 0) {
                chunkNnz++;
            }
        }
        long sparseBytes = chunkRows * 4L + chunkNnz * 12L;
        if (sparseBytes < count * 8L) {
            store.insert(no, firstRow, chunkRows, "SPARSE", chunkNnz,
                    ChunkCodec.encodeSparse(chunk, chunkRows, cols, chunkNnz, encoded));
            sparseChunks++;
        } else {
            store.insert(no, firstRow, chunkRows, "DENSE", chunkNnz, ChunkCodec.encodeDense(chunk, count, encoded));
            denseChunks++;
        }
        nnz += chunkNnz;
    }

    private void clip(double[] buffer, int base) {
        double norm = RowNorms.l2(buffer, base, cols);
        if (norm > bound) {
            clipped++;
            double factor = bound / norm;
            for (int c = 0; c < cols; c++) {
                buffer[base + c] *= factor;
            }
            // Rounding may leave the norm a hair above the bound: shrink until it is not.
            while (RowNorms.l2(buffer, base, cols) > bound) {
                for (int c = 0; c < cols; c++) {
                    buffer[base + c] *= 1 - 0x1p-50;
                }
            }
        }
    }

    /** Writes the last chunk, waits for the writer thread, and returns the upload's counts. */
    UploadStats finish(String format, long bytes) {
        flush();
        pipeline.await();
        if (rows == 0) {
            throw InvalidDataException.whole("the upload contains no rows");
        }
        String storage = sparseChunks == 0 ? "DENSE" : denseChunks == 0 ? "SPARSE" : "MIXED";
        return new UploadStats(rows, cols, nnz, clipped, format, storage, bytes, columnLabels);
    }

    private java.util.@org.jspecify.annotations.Nullable List<String> columnLabels;

    @Override
    public void columnLabels(java.util.List<String> labels) {
        columnLabels = java.util.List.copyOf(labels);
    }
}
