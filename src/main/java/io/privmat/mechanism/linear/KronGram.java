package io.privmat.mechanism.linear;

import io.privmat.hashing.Sha256;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A workload's Gram matrix WᵀW as a sum of Kronecker products, Σ_t ⊗_i G_{t,i}, over a shape (the
 * domain's attribute sizes, or [n] for a workload without product structure). This is what strategy
 * optimisation reads: for a product strategy ⊗A_i with K_i = (A_iᵀA_i)⁻¹ the expected error per
 * unit noise is tr(WᵀW·⊗K_i) = Σ_t Π_i tr(G_{t,i}·K_i).
 */
record KronGram(int[] shape, List<Factor[]> terms) {

    /** One attribute's Gram factor of one term: G = Σ over its one-attribute queries q of 1_q·1_qᵀ. */
    sealed interface Factor permits Generated, Interval, Dense {
        int n();

        /** The factor as a dense n × n row-major matrix. */
        double[] dense();

        /** tr(G·K) for a one-attribute covariance K. */
        double trace(Covariance1D k);
    }

    /** The Gram of a one-attribute generator (IDENTITY, TOTAL, PREFIX, ALL_RANGE); dense on demand. */
    record Generated(Generator generator, int n) implements Factor {
        @Override
        public double[] dense() {
            return generator.gram(n);
        }

        @Override
        public double trace(Covariance1D k) {
            // Σ over the generator's intervals of 1_qᵀK1_q (O(1) each for dense K, O(log n) for a tree).
            int[] lohi = new int[2];
            generator.first(n, lohi);
            double total = 0;
            do {
                total += k.rangeQuadratic(lohi[0], lohi[1]);
            } while (generator.next(n, lohi));
            return total;
        }
    }

    /** The rank-one factor 1_r·1_rᵀ of an interval r = [lo, hi] (one box of a RANGES workload). */
    record Interval(int n, int lo, int hi) implements Factor {
        @Override
        public double[] dense() {
            double[] g = new double[n * n];
            for (int i = lo; i <= hi; i++) {
                for (int j = lo; j <= hi; j++) {
                    g[i * n + j] = 1;
                }
            }
            return g;
        }

        @Override
        public double trace(Covariance1D k) {
            return k.rangeQuadratic(lo, hi);
        }
    }

    /** A dense symmetric factor (a flattened WᵀW). */
    record Dense(int n, double[] g) implements Factor {
        @Override
        public double[] dense() {
            return g;
        }

        @Override
        public double trace(Covariance1D k) {
            double[] kd = k.dense();
            double s = 0;
            for (int i = 0; i < g.length; i++) {
                s += g[i] * kd[i];
            }
            return s;
        }
    }

    /**
     * The same sum with its terms in a canonical order (by factor kind, then generator, size and
     * interval). Addition is commutative, so this is the same Gram; two workloads whose queries are the
     * same up to order (RANGES listing the same boxes differently) have equal canonical forms, and an
     * optimiser that reads the canonical form computes the same strategy, bit for bit, for both.
     */
    KronGram canonical() {
        List<Factor[]> sorted = new ArrayList<>(terms);
        sorted.sort(TERM_ORDER);
        return new KronGram(shape, sorted);
    }

    /**
     * SHA-256 (hex) of the shape and the terms in their current order (of {@link #canonical()}: the
     * Gram's identity for the strategy cache). A dense factor enters with all its values.
     */
    String hash() {
        MessageDigest digest = Sha256.digest();
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(shape.length);
        for (int s : shape) {
            b.putInt(s);
        }
        for (Factor[] term : terms) {
            for (Factor f : term) {
                if (b.remaining() < 32) {
                    digest.update(b.array(), 0, b.position());
                    b.clear();
                }
                b.put((byte) kind(f)).putInt(f.n());
                if (f instanceof Generated g) {
                    b.putInt(g.generator().ordinal());
                } else if (f instanceof Interval r) {
                    b.putInt(r.lo()).putInt(r.hi());
                } else {
                    digest.update(b.array(), 0, b.position());
                    b.clear();
                    double[] g = ((Dense) f).g();
                    ByteBuffer values = ByteBuffer.allocate(g.length * 8).order(ByteOrder.LITTLE_ENDIAN);
                    values.asDoubleBuffer().put(g);
                    digest.update(values.array());
                }
            }
        }
        digest.update(b.array(), 0, b.position());
        return Sha256.hex(digest);
    }

    private static int kind(Factor f) {
        return f instanceof Generated ? 0 : f instanceof Interval ? 1 : 2;
    }

    private static final Comparator<Factor> FACTOR_ORDER = (a, b) -> {
        int c = Integer.compare(kind(a), kind(b));
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.n(), b.n());
        if (c != 0) {
            return c;
        }
        if (a instanceof Generated g) {
            return Integer.compare(g.generator().ordinal(), ((Generated) b).generator().ordinal());
        }
        if (a instanceof Interval r) {
            Interval s = (Interval) b;
            int lo = Integer.compare(r.lo(), s.lo());
            return lo != 0 ? lo : Integer.compare(r.hi(), s.hi());
        }
        return Arrays.compare(((Dense) a).g(), ((Dense) b).g());
    };

    private static final Comparator<Factor[]> TERM_ORDER = (x, y) -> {
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = FACTOR_ORDER.compare(x[i], y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    };

    /** The dense n × n Gram Σ_t ⊗_i G_{t,i} (n = Π shape). */
    double[] dense() {
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        double[] out = new double[n * n];
        for (Factor[] term : terms) {
            double[] product = {1};
            int size = 1;
            for (Factor f : term) {
                double[] g = f.dense();
                int m = f.n();
                double[] next = new double[size * m * size * m];
                int cols = size * m;
                for (int a = 0; a < size; a++) {
                    for (int b = 0; b < size; b++) {
                        double v = product[a * size + b];
                        if (v == 0) {
                            continue;
                        }
                        for (int i = 0; i < m; i++) {
                            int row = (a * m + i) * cols + b * m;
                            for (int j = 0; j < m; j++) {
                                next[row + j] = v * g[i * m + j];
                            }
                        }
                    }
                }
                product = next;
                size *= m;
            }
            for (int i = 0; i < out.length; i++) {
                out[i] += product[i];
            }
        }
        return out;
    }
}
