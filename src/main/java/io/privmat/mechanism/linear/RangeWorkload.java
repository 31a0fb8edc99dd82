package io.privmat.mechanism.linear;

import io.privmat.hashing.Sha256;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** An explicit list of boxes (RANGES), answered in the order given. */
final class RangeWorkload extends BoxWorkload {

    private final int m;
    private final int k;
    private final int[] los;
    private final int[] his;

    RangeWorkload(Domain domain, List<Box> boxes) {
        super(domain);
        if (boxes.isEmpty()) {
            throw new LinearQueryException(LinearQueryException.Reason.EMPTY, "workload.ranges",
                    "a RANGES workload needs at least one box");
        }
        if (boxes.size() > LinearLimits.MAX_RANGES) {
            throw LinearQueryException.tooLarge("workload.ranges", "the number of boxes", boxes.size(),
                    LinearLimits.MAX_RANGES);
        }
        this.m = boxes.size();
        this.k = domain.attributes();
        this.los = new int[m * k];
        this.his = new int[m * k];
        for (int q = 0; q < m; q++) {
            Box b = boxes.get(q);
            Box.check(domain, b.lo(), b.hi(), "workload.ranges[" + q + "]");
            System.arraycopy(b.lo(), 0, los, q * k, k);
            System.arraycopy(b.hi(), 0, his, q * k, k);
        }
    }

    @Override
    public int queries() {
        return m;
    }

    @Override
    public String kind() {
        return "RANGES";
    }

    @Override
    public String canonical() {
        ByteBuffer bytes = ByteBuffer.allocate(8 * m * k);
        for (int i = 0; i < m * k; i++) {
            bytes.putInt(los[i]).putInt(his[i]);
        }
        return "ranges;domain=" + domain().canonical() + ";m=" + m + ";boxes-sha256="
                + Sha256.hex(bytes.array());
    }

    @Override
    void forEachBox(BoxConsumer consumer) {
        int[] lo = new int[k];
        int[] hi = new int[k];
        for (int q = 0; q < m; q++) {
            System.arraycopy(los, q * k, lo, 0, k);
            System.arraycopy(his, q * k, hi, 0, k);
            consumer.accept(q, lo, hi);
        }
    }

    @Override
    Box box(int query) {
        if (query < 0 || query >= m) {
            throw LinearQueryException.shape("query", "query index " + query + " is not in [0, " + m + ")");
        }
        int[] lo = new int[k];
        int[] hi = new int[k];
        System.arraycopy(los, query * k, lo, 0, k);
        System.arraycopy(his, query * k, hi, 0, k);
        return new Box(lo, hi);
    }

    @Override
    double[] columnCounts() {
        int[] shape = domain().sizes();
        int[] strides = BoxSums.strides(shape);
        double[] diff = new double[cells()];
        forEachBox((q, lo, hi) -> BoxSums.addBox(diff, shape, strides, lo, hi, 1));
        BoxSums.integrate(diff, shape);
        return diff;
    }

    @Override
    public double frobeniusSquared() {
        double total = 0;
        for (int q = 0; q < m; q++) {
            double v = 1;
            for (int i = 0; i < k; i++) {
                v *= his[q * k + i] - los[q * k + i] + 1;
            }
            total += v;
        }
        return total;
    }

    @Override
    public double[] denseGram() {
        return pairGram();
    }

    @Override
    KronGram kronGram() {
        List<KronGram.Factor[]> terms = new ArrayList<>(m);
        for (int q = 0; q < m; q++) {
            KronGram.Factor[] f = new KronGram.Factor[k];
            for (int i = 0; i < k; i++) {
                f[i] = new KronGram.Interval(domain().size(i), los[q * k + i], his[q * k + i]);
            }
            terms.add(f);
        }
        return new KronGram(domain().sizes(), terms);
    }
}
