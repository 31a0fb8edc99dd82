package io.privmat.mechanism.linear;

import io.privmat.hashing.Sha256;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A public workload W (m × n) of linear counting queries over a histogram x ∈ ℝⁿ on a product
 * {@link Domain}, represented implicitly where it is large. Built by the factories below (IDENTITY,
 * PREFIX, ALL_RANGE, RANGES, MARGINALS, CUSTOM), each validated with a
 * {@link LinearQueryException} naming the offending field.
 *
 * <p>Everything here is a function of the public workload: m, W·x (for a box workload through a
 * summed-area table of x, O(n·k + m·2^k), never a dense m × n product), WᵀW (dense when n ≤
 * {@link LinearLimits#MAX_DENSE_CELLS}, else as Kronecker factors), ‖W‖_F², the largest column L1
 * and L2 norms, and a canonical description with its SHA-256 {@link #hash()} for caching strategies.
 */
public abstract sealed class Workload permits BoxWorkload, DenseWorkload {

    private final Domain domain;
    private volatile @Nullable String hash;

    Workload(Domain domain) {
        this.domain = domain;
    }

    public final Domain domain() {
        return domain;
    }

    /** n = the domain's number of cells. */
    public final int cells() {
        return domain.cells();
    }

    /** m = the number of queries. */
    public abstract int queries();

    /** The generator it was built with: IDENTITY, PREFIX, ALL_RANGE, RANGES, MARGINALS, PRODUCT or CUSTOM. */
    public abstract String kind();

    /**
     * A canonical description: equal descriptions mean equal matrices (same rows in the same order).
     * Large explicit parts (boxes, a custom matrix) appear as their SHA-256.
     */
    public abstract String canonical();

    /** SHA-256 (hex) of {@link #canonical()}: the cache key of strategies for this workload. */
    public final String hash() {
        String h = hash;
        if (h == null) {
            h = Sha256.hex(canonical());
            hash = h;
        }
        return h;
    }

    /**
     * SHA-256 (hex) identifying WᵀW as the optimiser reads it: the cache key of optimised
     * strategies, whose objective depends on W only through WᵀW. For box workloads it is the hash of
     * the Gram's canonical sum of Kronecker terms ({@link KronGram#canonical()}), so workloads that
     * list the same queries in another order share one strategy; for a CUSTOM matrix it is
     * {@link #hash()} (its Gram is not computed just to name it).
     */
    public String gramHash() {
        return hash();
    }

    /** The exact answers W·x (x of length n). */
    public abstract double[] answer(double[] x);

    /** ‖W‖_F². */
    public abstract double frobeniusSquared();

    /** max_j ‖W e_j‖₁: the L1 sensitivity of W·x for one added or removed record. */
    public abstract double maxColumnL1();

    /** max_j ‖W e_j‖₂. */
    public abstract double maxColumnL2();

    /**
     * WᵀW as a dense n × n row-major matrix.
     *
     * @throws LinearQueryException TOO_LARGE when n &gt; {@link LinearLimits#MAX_DENSE_CELLS}
     */
    public abstract double[] denseGram();

    /** WᵀW as a sum of Kronecker products (what strategy optimisation reads). */
    abstract KronGram kronGram();

    /** Per-query variance w_qᵀ·Cov·w_q for every query, in query order (no m × m matrix). */
    public abstract double[] variances(CellCovariance covariance);

    /** One query as a dense n-vector (for tests and for further queries). */
    public abstract double[] row(int query);

    final void checkCells(double[] x, String field) {
        if (x.length != domain.cells()) {
            throw LinearQueryException.shape(field, "expected a vector of " + domain.cells() + " cells but got "
                    + x.length);
        }
    }

    final void requireDenseCells(String what) {
        if (domain.cells() > LinearLimits.MAX_DENSE_CELLS) {
            throw LinearQueryException.tooLarge("workload", what + " needs a dense n × n matrix; n",
                    domain.cells(), LinearLimits.MAX_DENSE_CELLS);
        }
    }

    // ----- factories -----

    /** Every cell (Kronecker product of IDENTITY on every attribute). */
    public static Workload identity(Domain domain) {
        Generator[] term = new Generator[domain.attributes()];
        java.util.Arrays.fill(term, Generator.IDENTITY);
        return new ProductWorkload(domain, "IDENTITY", List.<Generator[]>of(term));
    }

    /**
     * Prefix queries on the given attributes (all attributes when none given): the Kronecker
     * product of PREFIX on those attributes and TOTAL on the others (k-D prefixes [0, v]).
     */
    public static Workload prefix(Domain domain, int... attributes) {
        return onAttributes(domain, "PREFIX", Generator.PREFIX, attributes);
    }

    /**
     * All ranges on the given attributes (all when none given): Kronecker product of ALL_RANGE on
     * those and TOTAL on the others — on several attributes, every k-D box.
     */
    public static Workload allRange(Domain domain, int... attributes) {
        return onAttributes(domain, "ALL_RANGE", Generator.ALL_RANGE, attributes);
    }

    /** An explicit list of boxes. */
    public static Workload ranges(Domain domain, List<Box> boxes) {
        return new RangeWorkload(domain, boxes);
    }

    /** All k-way marginals (every set of k attributes, in lexicographic order). */
    public static Workload marginals(Domain domain, int k) {
        int d = domain.attributes();
        if (k < 0 || k > d) {
            throw LinearQueryException.invalid("workload.k", "k must be in [0, " + d + "] but was " + k);
        }
        List<int[]> sets = new ArrayList<>();
        combinations(d, k, 0, new int[k], 0, sets);
        return marginals(domain, sets);
    }

    /** The marginals on the listed attribute sets (IDENTITY on the set, TOTAL elsewhere), in that order. */
    public static Workload marginals(Domain domain, List<int[]> sets) {
        if (sets.isEmpty()) {
            throw new LinearQueryException(LinearQueryException.Reason.EMPTY, "workload.sets",
                    "a marginal workload needs at least one attribute set");
        }
        Set<String> seen = new HashSet<>();
        List<Generator[]> terms = new ArrayList<>();
        for (int s = 0; s < sets.size(); s++) {
            Generator[] term = new Generator[domain.attributes()];
            java.util.Arrays.fill(term, Generator.TOTAL);
            int[] set = sets.get(s);
            for (int a : set) {
                checkAttribute(domain, a, "workload.sets[" + s + "]");
                if (term[a] == Generator.IDENTITY) {
                    throw LinearQueryException.invalid("workload.sets[" + s + "]", "attribute " + a + " repeated");
                }
                term[a] = Generator.IDENTITY;
            }
            if (!seen.add(java.util.Arrays.toString(term))) {
                throw LinearQueryException.invalid("workload.sets[" + s + "]", "attribute set listed twice");
            }
            terms.add(term);
        }
        return new ProductWorkload(domain, "MARGINALS", terms);
    }

    /** A union of Kronecker products of one-attribute generators (one array per term, one generator per attribute). */
    public static Workload product(Domain domain, List<Generator[]> terms) {
        return new ProductWorkload(domain, "PRODUCT", terms);
    }

    /**
     * An explicit dense m × n matrix (row-major), e.g. uploaded by an analyst.
     *
     * @throws LinearQueryException on a shape mismatch, a NaN or infinite entry, an all-zero matrix,
     *     or more than {@link LinearLimits#MAX_DENSE_ENTRIES} entries
     */
    public static Workload custom(Domain domain, int rows, double[] matrix) {
        return new DenseWorkload(domain, rows, matrix);
    }

    private static Workload onAttributes(Domain domain, String kind, Generator g, int[] attributes) {
        Generator[] term = new Generator[domain.attributes()];
        if (attributes.length == 0) {
            java.util.Arrays.fill(term, g);
        } else {
            java.util.Arrays.fill(term, Generator.TOTAL);
            for (int a : attributes) {
                checkAttribute(domain, a, "workload.attributes");
                if (term[a] == g) {
                    throw LinearQueryException.invalid("workload.attributes", "attribute " + a + " repeated");
                }
                term[a] = g;
            }
        }
        return new ProductWorkload(domain, kind, List.<Generator[]>of(term));
    }

    static void checkAttribute(Domain domain, int a, String field) {
        if (a < 0 || a >= domain.attributes()) {
            throw LinearQueryException.shape(field, "attribute index " + a + " is not in [0, "
                    + (domain.attributes() - 1) + "]");
        }
    }

    private static void combinations(int d, int k, int start, int[] current, int depth, List<int[]> out) {
        if (depth == k) {
            out.add(current.clone());
            return;
        }
        for (int a = start; a < d; a++) {
            current[depth] = a;
            combinations(d, k, a + 1, current, depth + 1, out);
        }
    }

    @Override
    public String toString() {
        return kind() + " workload " + domain.canonical() + ", m = " + queries() + " (" + hash().substring(0, 12) + ")";
    }
}
