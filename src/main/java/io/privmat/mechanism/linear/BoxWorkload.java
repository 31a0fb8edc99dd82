package io.privmat.mechanism.linear;

/**
 * A workload whose every query is a box (per attribute an inclusive interval): the product
 * generators and explicit range lists. W·x is answered from a summed-area table of x.
 */
abstract sealed class BoxWorkload extends Workload permits ProductWorkload, RangeWorkload {

    /** Receives the boxes in query order; the arrays are reused between calls. */
    @FunctionalInterface
    interface BoxConsumer {
        void accept(int query, int[] lo, int[] hi);
    }

    private volatile @org.jspecify.annotations.Nullable String gramHash;

    BoxWorkload(Domain domain) {
        super(domain);
    }

    /** The hash of the canonical Kronecker form of WᵀW: the same for the same queries in any order. */
    @Override
    public final String gramHash() {
        String h = gramHash;
        if (h == null) {
            h = kronGram().canonical().hash();
            gramHash = h;
        }
        return h;
    }

    /** Visits every query's box in query order. */
    abstract void forEachBox(BoxConsumer consumer);

    /** Query q's box. */
    abstract Box box(int query);

    /** The number of queries containing each cell (W has 0/1 entries: column L1 = squared column L2). */
    abstract double[] columnCounts();

    @Override
    public double[] answer(double[] x) {
        checkCells(x, "x");
        int[] shape = domain().sizes();
        int[] strides = BoxSums.strides(shape);
        double[] sat = x.clone();
        BoxSums.integrate(sat, shape);
        double[] out = new double[queries()];
        forEachBox((q, lo, hi) -> out[q] = BoxSums.boxSum(sat, shape, strides, lo, hi));
        return out;
    }

    @Override
    public double[] variances(CellCovariance covariance) {
        double[] out = new double[queries()];
        forEachBox((q, lo, hi) -> out[q] = covariance.boxVariance(lo, hi));
        return out;
    }

    @Override
    public double maxColumnL1() {
        double max = 0;
        for (double c : columnCounts()) {
            max = Math.max(max, c);
        }
        return max;
    }

    @Override
    public double maxColumnL2() {
        return Math.sqrt(maxColumnL1());
    }

    @Override
    public double[] row(int query) {
        Box b = box(query);
        double[] r = new double[cells()];
        Domain d = domain();
        int k = d.attributes();
        int[] c = b.lo().clone();
        while (true) {
            r[d.cell(c)] = 1;
            int i = k - 1;
            while (i >= 0 && c[i] == b.hi()[i]) {
                c[i] = b.lo()[i];
                i--;
            }
            if (i < 0) {
                return r;
            }
            c[i]++;
        }
    }

    /** WᵀW from a 2k-dimensional difference array over the pair tensor (O(m·4^k + k·n²)). */
    double[] pairGram() {
        requireDenseCells("WᵀW");
        int[] shape = BoxSums.pairShape(domain().sizes());
        int[] strides = BoxSums.strides(shape);
        int n = cells();
        double[] g = new double[n * n];
        int k = domain().attributes();
        int[] lo2 = new int[2 * k];
        int[] hi2 = new int[2 * k];
        forEachBox((q, lo, hi) -> {
            System.arraycopy(lo, 0, lo2, 0, k);
            System.arraycopy(lo, 0, lo2, k, k);
            System.arraycopy(hi, 0, hi2, 0, k);
            System.arraycopy(hi, 0, hi2, k, k);
            BoxSums.addBox(g, shape, strides, lo2, hi2, 1);
        });
        BoxSums.integrate(g, shape);
        return g;
    }
}
