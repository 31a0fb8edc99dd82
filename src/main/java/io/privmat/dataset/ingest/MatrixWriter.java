package io.privmat.dataset.ingest;

import io.privmat.dataset.storage.ChunkCodec;
import io.privmat.dataset.storage.DatasetRepository;
import java.util.Arrays;
import java.util.UUID;

/**
 * Receives validated rows, clips each to the public L2 bound, groups them into chunks of about
 * {@code chunkBytes} and writes each chunk dense or sparse, whichever is smaller. Memory: one
 * chunk buffer, whatever the number of rows.
 */
final class MatrixWriter implements RowSink {

    private final DatasetRepository repository;
    private final UUID datasetId;
    private final int cols;
    private final double bound;
    private final int rowsPerChunk;
    private final double[] buffer;
    private int bufferedRows;
    private int chunkNo;
    private long rows;
    private long nnz;
    private long clipped;
    private int denseChunks;
    private int sparseChunks;

    MatrixWriter(DatasetRepository repository, UUID datasetId, int cols, double bound, long chunkBytes) {
        this.repository = repository;
        this.datasetId = datasetId;
        this.cols = cols;
        this.bound = bound;
        this.rowsPerChunk = (int) Math.max(1, Math.min(1 << 20, chunkBytes / (8L * cols)));
        this.buffer = new double[rowsPerChunk * cols];
    }

    /** Adds a dense row of length {@code cols} (copied). */
    @Override
    public void denseRow(double[] row) {
        int base = bufferedRows * cols;
        System.arraycopy(row, 0, buffer, base, cols);
        clip(base);
        advance();
    }

    /** Adds a sparse row: {@code n} entries with distinct column indices in [0, cols). */
    @Override
    public void sparseRow(int n, int[] columns, double[] values) {
        int base = bufferedRows * cols;
        Arrays.fill(buffer, base, base + cols, 0.0);
        for (int k = 0; k < n; k++) {
            buffer[base + columns[k]] = values[k];
        }
        clip(base);
        advance();
    }

    private void clip(int base) {
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

    private void advance() {
        bufferedRows++;
        rows++;
        if (bufferedRows == rowsPerChunk) {
            flush();
        }
    }

    private void flush() {
        if (bufferedRows == 0) {
            return;
        }
        int count = bufferedRows * cols;
        long chunkNnz = 0;
        for (int i = 0; i < count; i++) {
            if (buffer[i] != 0) {
                chunkNnz++;
            }
        }
        long sparseBytes = bufferedRows * 4L + chunkNnz * 12L;
        long firstRow = rows - bufferedRows;
        if (sparseBytes < count * 8L) {
            repository.insertChunk(datasetId, chunkNo++, firstRow, bufferedRows, "SPARSE", chunkNnz,
                    ChunkCodec.encodeSparse(buffer, bufferedRows, cols, chunkNnz));
            sparseChunks++;
        } else {
            repository.insertChunk(datasetId, chunkNo++, firstRow, bufferedRows, "DENSE", chunkNnz,
                    ChunkCodec.encodeDense(buffer, count));
            denseChunks++;
        }
        nnz += chunkNnz;
        bufferedRows = 0;
    }

    UploadStats finish(String format, long bytes) {
        flush();
        if (rows == 0) {
            throw InvalidDataException.whole("the upload contains no rows");
        }
        String storage = sparseChunks == 0 ? "DENSE" : denseChunks == 0 ? "SPARSE" : "MIXED";
        return new UploadStats(rows, cols, nnz, clipped, format, storage, bytes);
    }
}
