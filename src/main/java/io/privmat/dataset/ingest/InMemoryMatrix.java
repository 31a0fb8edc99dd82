package io.privmat.dataset.ingest;

import java.util.Arrays;

/**
 * Collects a parsed matrix in memory, row-major, refusing more than {@code maxEntries} values
 * (rows × cols) as soon as the rows read so far exceed it.
 */
final class InMemoryMatrix implements RowSink {

    private final int cols;
    private final long maxEntries;
    private double[] values;
    private int rows;

    InMemoryMatrix(int cols, long maxEntries) {
        if (cols > maxEntries) {
            throw InvalidDataException.whole("a row has " + cols + " values; at most " + maxEntries
                    + " values are accepted in all");
        }
        this.cols = cols;
        this.maxEntries = maxEntries;
        this.values = new double[Math.max(cols, 1) * 16];
    }

    @Override
    public void denseRow(double[] row) {
        double[] target = next();
        System.arraycopy(row, 0, target, rows * cols, cols);
        rows++;
    }

    @Override
    public void sparseRow(int n, int[] columns, double[] entries) {
        double[] target = next();
        int base = rows * cols;
        for (int k = 0; k < n; k++) {
            target[base + columns[k]] = entries[k];
        }
        rows++;
    }

    private double[] next() {
        long needed = (long) (rows + 1) * cols;
        if (needed > maxEntries) {
            throw InvalidDataException.whole("more than " + maxEntries + " values (rows × columns)");
        }
        if (needed > values.length) {
            values = Arrays.copyOf(values, (int) Math.min(maxEntries, Math.max(needed, 2L * values.length)));
        }
        return values;
    }

    int rows() {
        return rows;
    }

    int cols() {
        return cols;
    }

    double[] values() {
        return Arrays.copyOf(values, rows * cols);
    }
}
