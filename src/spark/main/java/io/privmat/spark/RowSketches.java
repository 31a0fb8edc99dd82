package io.privmat.spark;

import io.privmat.mechanism.linalg.FixedPointGram;
import io.privmat.mechanism.linalg.FixedPointWeightedSums;
import io.privmat.mechanism.catalog.RowStream;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.FlatMapFunction2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The two row passes of Hardt–Roth on the executors ({@link RowStream#project},
 * {@link RowStream#weightedSums}): what comes back is an ℓ-vector per row (XΩ) or the ℓ × d sums
 * Q̃ᵀX̃, never the rows. Each row is read and clipped exactly as {@link PartitionStatistics} does
 * (the rows x̃ the row stream would deliver) and then goes through the same pure-Java code the
 * in-process path runs, so the results are the same bits. The parameters are public or released to
 * nobody and fixed before the pass (Ω, drawn by the job; Q̃, a function of the noisy range finder):
 * no noise, seed or secret key reaches an executor, and a re-run task recomputes the same values.
 */
final class RowSketches {

    private RowSketches() {}

    /** One partition's rows times W (d × ℓ): [count·ℓ values], row by row in the source's order. */
    static final class Project implements FlatMapFunction<Iterator<InternalRow>, double[]> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final int l;
        private final double bound;
        private final Broadcast<double[]> w;
        private final PartitionStatistics.RowReader reader;

        Project(int d, int l, double bound, Broadcast<double[]> w, PartitionStatistics.RowReader reader) {
            this.d = d;
            this.l = l;
            this.bound = bound;
            this.w = w;
            this.reader = reader;
        }

        @Override
        public Iterator<double[]> call(Iterator<InternalRow> rows) {
            double[] weights = w.value();
            double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
            double[] raw = new double[d];
            long[] q = new long[d];
            double[] row = new double[d];
            double[] out = new double[1024 * l];
            int count = 0;
            while (rows.hasNext()) {
                reader.read(rows.next(), raw);
                PartitionStatistics.clipped(raw, q, bound, h, row, 0);
                if ((count + 1) * l > out.length) {
                    out = Arrays.copyOf(out, Math.multiplyExact(out.length, 2));
                }
                RowStream.projectRows(row, 0, 1, weights, l, out, count * l);
                count++;
            }
            return List.of(Arrays.copyOf(out, count * l)).iterator();
        }
    }

    /**
     * One partition's Σ aᵢx̃ᵢᵀ, its weights the partition's slice of A (count·ℓ values, one element of
     * the zipped partition), and whether the partition held exactly that many rows (else the source
     * changed since the pass that counted them; the pairs beyond the slice get weight 0).
     */
    static final class WeightedSums
            implements FlatMapFunction2<Iterator<InternalRow>, Iterator<Slice>, Part> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final int l;
        private final double bound;
        private final PartitionStatistics.RowReader reader;

        WeightedSums(int d, int l, double bound, PartitionStatistics.RowReader reader) {
            this.d = d;
            this.l = l;
            this.bound = bound;
            this.reader = reader;
        }

        @Override
        public Iterator<Part> call(Iterator<InternalRow> rows, Iterator<Slice> slices) {
            BlasThreads.taskStarted(); // its dgemm on one OpenBLAS thread while it runs (BlasThreads)
            try {
                return sums(rows, slices);
            } finally {
                BlasThreads.taskEnded();
            }
        }

        private Iterator<Part> sums(Iterator<InternalRow> rows, Iterator<Slice> slices) {
            double[] weights = slices.hasNext() ? slices.next().values() : new double[0];
            boolean aligned = !slices.hasNext();
            int expected = weights.length / l;
            double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
            double[] raw = new double[d];
            long[] q = new long[d];
            double[] row = new double[d];
            double[] none = new double[l];
            FixedPointWeightedSums sums = new FixedPointWeightedSums(d, l, bound);
            long count = 0;
            while (rows.hasNext()) {
                reader.read(rows.next(), raw);
                PartitionStatistics.clipped(raw, q, bound, h, row, 0);
                if (count < expected) {
                    sums.add(weights, (int) count * l, row, 0);
                } else {
                    sums.add(none, 0, row, 0);
                }
                count++;
            }
            return List.of(new Part(sums.state(), aligned && count == expected)).iterator();
        }
    }

    /**
     * A partition's slice [from, to) of the driver's A, serialised as those values alone: the driver
     * keeps A and no copy of it (each task, a retried one too, writes its slice from A when it is
     * sent); an executor reads it into an array of its own.
     */
    static final class Slice implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private transient double[] a;
        private transient int from;
        private transient int to;

        Slice(double[] a, int from, int to) {
            this.a = a;
            this.from = from;
            this.to = to;
        }

        /** The slice's values (the array itself once deserialised). */
        double[] values() {
            return from == 0 && to == a.length ? a : Arrays.copyOfRange(a, from, to);
        }

        private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.defaultWriteObject();
            out.writeInt(to - from);
            for (int i = from; i < to; i++) {
                out.writeDouble(a[i]);
            }
        }

        private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
            int n = in.readInt();
            a = new double[n];
            for (int i = 0; i < n; i++) {
                a[i] = in.readDouble();
            }
            from = 0;
            to = n;
        }
    }

    /** A partition's (or merged partitions') weighted sums, and whether every partition was aligned. */
    record Part(FixedPointWeightedSums.State sums, boolean aligned) implements java.io.Serializable {

        static Part merge(Part a, Part b) {
            return new Part(FixedPointWeightedSums.merge(a.sums, b.sums), a.aligned && b.aligned);
        }
    }
}
