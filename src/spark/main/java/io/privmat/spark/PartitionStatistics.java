package io.privmat.spark;

import io.privmat.mechanism.linalg.FixedPointGram;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * What runs on Spark executors, one call per partition. Each function holds public parameters only
 * — d, the row bound B, and for the power methods the iteration matrix V (a function of earlier
 * noisy releases) — and returns exact or compensated sums of the partition's clipped rows. No noise,
 * no seed and no secret reaches an executor: a task Spark re-runs (a lost executor, speculation)
 * recomputes the same sums, and the service adds the noise once, to the merged result.
 *
 * <p>Every function reads a row the same way ({@link RowReader}: the d scalar columns, or the vector
 * layout's one column): a missing (null) or non-finite value, or a vector of another length than d,
 * makes the row the zero row (it still counts as a row), and every row is clipped and quantised by
 * {@link FixedPointGram#quantize}, so all statistics are of the same rows x̃ with ‖x̃‖ ≤ B exactly.
 */
final class PartitionStatistics {

    private PartitionStatistics() {}

    /**
     * Reads one source row into d doubles. A row that cannot be read as d finite numbers is given a
     * NaN (so that {@link FixedPointGram#quantize} makes it the zero row): nothing here throws because
     * of a value read.
     */
    interface RowReader extends java.io.Serializable {
        void read(InternalRow row, double[] out);
    }

    /** The d declared columns, already cast to double; a null is NaN. */
    static RowReader scalars() {
        return (row, out) -> {
            for (int j = 0; j < out.length; j++) {
                out[j] = row.isNullAt(j) ? Double.NaN : row.getDouble(j);
            }
        };
    }

    /**
     * The vector layout as a Parquet list of doubles (column 0): a missing list, a list of another
     * length than d or a missing element makes the row NaN.
     */
    static RowReader doubleList() {
        return (row, out) -> {
            ArrayData a = row.isNullAt(0) ? null : row.getArray(0);
            if (a == null || a.numElements() != out.length) {
                out[0] = Double.NaN;
                return;
            }
            for (int j = 0; j < out.length; j++) {
                out[j] = a.isNullAt(j) ? Double.NaN : a.getDouble(j);
            }
        };
    }

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /**
     * The vector layout as a binary of 8·d bytes, little-endian IEEE 754 (column 0): a missing value or
     * another length makes the row NaN. From Spark's UnsafeRow (what a whole-stage-compiled scan
     * yields) the bytes are copied straight into {@code out}, with no object per row.
     */
    static RowReader binary() {
        return (row, out) -> {
            int bytes = 8 * out.length;
            if (row.isNullAt(0)) {
                out[0] = Double.NaN;
            } else if (LITTLE_ENDIAN && row instanceof UnsafeRow u) {
                long offsetAndSize = u.getLong(0);
                int offset = (int) (offsetAndSize >> 32);
                int size = (int) offsetAndSize;
                if (size != bytes) {
                    out[0] = Double.NaN;
                    return;
                }
                Platform.copyMemory(u.getBaseObject(), u.getBaseOffset() + offset, out, Platform.DOUBLE_ARRAY_OFFSET,
                        bytes);
            } else {
                byte[] b = row.getBinary(0);
                if (b.length != bytes) {
                    out[0] = Double.NaN;
                    return;
                }
                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out, 0, out.length);
            }
        };
    }

    /**
     * Row {@code i} of a columnar batch's binary column (the vector layout), as {@link #binary()} reads
     * it from a row: a null or another length than 8·d bytes makes the row NaN. From Parquet's
     * vectorised reader (a {@link WritableColumnVector}) the bytes are copied straight from the batch's
     * buffer into {@code out}, with no object per row but a view.
     */
    static void binary(ColumnVector column, int i, double[] out) {
        int bytes = 8 * out.length;
        if (column.isNullAt(i)) {
            out[0] = Double.NaN;
        } else if (LITTLE_ENDIAN && column instanceof WritableColumnVector w) {
            UTF8String view = w.getUTF8String(i); // the value's bytes where the batch holds them
            if (view.numBytes() != bytes) {
                out[0] = Double.NaN;
                return;
            }
            Platform.copyMemory(view.getBaseObject(), view.getBaseOffset(), out, Platform.DOUBLE_ARRAY_OFFSET, bytes);
        } else {
            byte[] b = column.getBinary(i);
            if (b == null || b.length != bytes) {
                out[0] = Double.NaN;
                return;
            }
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out, 0, out.length);
        }
    }

    /** The row x̃ = h·q as doubles (exact: q is an integer below 2²³, h a power-of-two multiple of B). */
    static void clipped(double[] raw, long[] q, double bound, double h, double[] out, int offset) {
        FixedPointGram.quantize(raw, 0, raw.length, bound, q);
        for (int j = 0; j < q.length; j++) {
            out[offset + j] = q[j] * h;
        }
    }

    /** Fixed-point column sums (and Gram) of one partition: {@link FixedPointGram}'s exact integers. */
    static final class Sums implements FlatMapFunction<Iterator<InternalRow>, FixedPointGram.State> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final double bound;
        private final boolean withGram;
        private final RowReader reader;

        Sums(int d, double bound, boolean withGram, RowReader reader) {
            this.reader = reader;
            this.d = d;
            this.bound = bound;
            this.withGram = withGram;
        }

        @Override
        public Iterator<FixedPointGram.State> call(Iterator<InternalRow> rows) {
            return exactSums(d, bound, withGram, (g, row) -> {
                while (rows.hasNext()) {
                    reader.read(rows.next(), row);
                    g.add(row, 0);
                }
            });
        }
    }

    /** Feeds a partition's rows, one at a time through {@code row}, into the accumulator. */
    interface Feed {
        void rows(FixedPointGram g, double[] row);
    }

    /**
     * A partition's {@link FixedPointGram} state over the rows {@code feed} adds; with the Gram, the
     * task counts towards {@link BlasThreads} (one OpenBLAS thread per call while any such task runs).
     */
    static Iterator<FixedPointGram.State> exactSums(int d, double bound, boolean withGram, Feed feed) {
        FixedPointGram g = new FixedPointGram(d, bound, withGram);
        if (withGram) {
            BlasThreads.taskStarted();
        }
        try {
            feed.rows(g, new double[d]);
            return List.of(g.state()).iterator();
        } finally {
            if (withGram) {
                BlasThreads.taskEnded();
            }
        }
    }

    /**
     * {@link Sums} over the vector layout's binary column read as Spark's columnar batches (Parquet's
     * vectorised reader without the conversion to rows): the same rows, so the same integers.
     */
    static final class BatchSums implements FlatMapFunction<Iterator<ColumnarBatch>, FixedPointGram.State> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final double bound;
        private final boolean withGram;

        BatchSums(int d, double bound, boolean withGram) {
            this.d = d;
            this.bound = bound;
            this.withGram = withGram;
        }

        @Override
        public Iterator<FixedPointGram.State> call(Iterator<ColumnarBatch> batches) {
            return exactSums(d, bound, withGram, (g, row) -> {
                while (batches.hasNext()) {
                    ColumnarBatch batch = batches.next(); // reused by the reader: read before the next
                    ColumnVector column = batch.column(0);
                    int rows = batch.numRows();
                    for (int i = 0; i < rows; i++) {
                        binary(column, i, row);
                        g.add(row, 0);
                    }
                }
            });
        }
    }

    /**
     * Σ x̃ (x̃ᵀV) over one partition for a public d × k V: blocks of rows in doubles (BLAS), the blocks'
     * sums added with Neumaier's compensation. Returns [sum (d·k), compensation (d·k), rows].
     */
    static final class GramTimes implements FlatMapFunction<Iterator<InternalRow>, double[]> {
        private static final long serialVersionUID = 1L;
        private static final int BLOCK = 256;
        private final int d;
        private final int k;
        private final double bound;
        private final Broadcast<double[]> v;
        private final RowReader reader;

        GramTimes(int d, int k, double bound, Broadcast<double[]> v, RowReader reader) {
            this.reader = reader;
            this.d = d;
            this.k = k;
            this.bound = bound;
            this.v = v;
        }

        @Override
        public Iterator<double[]> call(Iterator<InternalRow> rows) {
            // Counted as an exact-kernel task (BlasThreads): its dgemm runs on one OpenBLAS thread, so a
            // task's floating sums do not depend on what else runs in the JVM, and a retried task
            // recomputes the same bits.
            BlasThreads.taskStarted();
            try {
                return sums(rows);
            } finally {
                BlasThreads.taskEnded();
            }
        }

        private Iterator<double[]> sums(Iterator<InternalRow> rows) {
            double[] basis = v.value();
            double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
            double[] raw = new double[d];
            long[] q = new long[d];
            double[] block = new double[BLOCK * d];
            double[] xv = new double[BLOCK * k];
            double[] partial = new double[d * k];
            double[] out = new double[2 * d * k + 1];
            int count = 0;
            long total = 0;
            while (rows.hasNext()) {
                reader.read(rows.next(), raw);
                clipped(raw, q, bound, h, block, count * d);
                total++;
                if (++count == BLOCK) {
                    addBlock(block, count, basis, xv, partial, out);
                    count = 0;
                }
            }
            addBlock(block, count, basis, xv, partial, out);
            out[2 * d * k] = total;
            return List.of(out).iterator();
        }

        private void addBlock(double[] block, int count, double[] basis, double[] xv, double[] partial, double[] out) {
            if (count == 0) {
                return;
            }
            double[] rowsBlock = count == BLOCK ? block : Arrays.copyOf(block, count * d);
            double[] xvBlock = count == BLOCK ? xv : new double[count * k];
            LinearAlgebraOps.multiply(rowsBlock, count, d, basis, k, xvBlock);
            Arrays.fill(partial, 0.0);
            LinearAlgebraOps.addMultiplyTransA(rowsBlock, count, d, xvBlock, k, partial);
            compensatedAdd(out, 0, d * k, partial);
        }
    }

    /** Neumaier: (sum, compensation) in {@code acc} at [0, n) and [n, 2n) += values. */
    static void compensatedAdd(double[] acc, int from, int n, double[] values) {
        for (int i = 0; i < n; i++) {
            double s = acc[from + i];
            double x = values[i];
            double t = s + x;
            acc[from + n + i] += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
            acc[from + i] = t;
        }
    }

    /** Merges two [sum, compensation, rows] partition results of {@link GramTimes}. */
    static double[] mergeCompensated(double[] a, double[] b) {
        int n = (a.length - 1) / 2;
        double[] out = a.clone();
        compensatedAdd(out, 0, n, Arrays.copyOfRange(b, 0, n));
        for (int i = 0; i < n; i++) {
            out[n + i] += b[n + i];
        }
        out[2 * n] = a[2 * n] + b[2 * n];
        return out;
    }

    /** One partition's clipped rows x̃, in order, as row-major blocks of at most {@code blockRows} rows. */
    static final class ClippedBlocks implements FlatMapFunction<Iterator<InternalRow>, double[]> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final double bound;
        private final int blockRows;
        private final RowReader reader;

        ClippedBlocks(int d, double bound, int blockRows, RowReader reader) {
            this.reader = reader;
            this.d = d;
            this.bound = bound;
            this.blockRows = blockRows;
        }

        @Override
        public Iterator<double[]> call(Iterator<InternalRow> rows) {
            double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
            double[] raw = new double[d];
            long[] q = new long[d];
            // Lazy: one block in memory at a time, whatever the partition's size.
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public double[] next() {
                    double[] block = new double[blockRows * d];
                    int count = 0;
                    while (count < blockRows && rows.hasNext()) {
                        reader.read(rows.next(), raw);
                        clipped(raw, q, bound, h, block, count * d);
                        count++;
                    }
                    return count == blockRows ? block : Arrays.copyOf(block, count * d);
                }
            };
        }
    }
}
