package io.privmat.dataset;

/**
 * A block of consecutive matrix rows as stored, decoded. Dense chunks fill {@code values}
 * row-major ({@code rowCount × cols}); sparse chunks use CSR arrays ({@code rowPointers} of length
 * {@code rowCount + 1}, {@code columnIndices}, {@code values}).
 */
public record MatrixChunk(long firstRow, int rowCount, int cols, boolean sparse,
        int[] rowPointers, int[] columnIndices, double[] values) {

    /** Visits every stored entry (for dense chunks, every entry including zeros). */
    public void forEachEntry(EntryVisitor visitor) {
        if (sparse) {
            for (int r = 0; r < rowCount; r++) {
                for (int k = rowPointers[r]; k < rowPointers[r + 1]; k++) {
                    visitor.visit(firstRow + r, columnIndices[k], values[k]);
                }
            }
        } else {
            for (int r = 0; r < rowCount; r++) {
                for (int c = 0; c < cols; c++) {
                    visitor.visit(firstRow + r, c, values[r * cols + c]);
                }
            }
        }
    }

    /** The rows as a dense row-major array of {@code rowCount × cols}. */
    public double[] toDense() {
        if (!sparse) {
            return values;
        }
        double[] dense = new double[rowCount * cols];
        for (int r = 0; r < rowCount; r++) {
            for (int k = rowPointers[r]; k < rowPointers[r + 1]; k++) {
                dense[r * cols + columnIndices[k]] = values[k];
            }
        }
        return dense;
    }

    @FunctionalInterface
    public interface EntryVisitor {
        void visit(long row, int col, double value);
    }
}
