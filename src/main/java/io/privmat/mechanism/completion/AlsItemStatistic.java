package io.privmat.mechanism.completion;

import io.privmat.mechanism.linalg.FixedPointGram;

/**
 * One step of private ALS over the users, for the public item factors V (n × r): each user fits
 * uᵢ on V from their own ratings ({@link LocalFits#ridge}), clips it to ‖uᵢ‖ ≤ C
 * ({@link DpAlsMechanism#clipFit}) and quantises it to the grid C·2⁻²² without growing; each
 * centred rating is quantised to (hi − lo)/2·2⁻²² towards zero. A user adds, for every item j they
 * rated, q_a·q_b to G_j (upper triangle) and q_y·q_a to b_j. Stateless.
 */
final class AlsItemStatistic implements UserStatistic {

    private static final long serialVersionUID = 1L;
    private static final double SCALE = 0x1p22;
    private static final long MAX_Q = 1L << FixedPointGram.FRACTION_BITS;

    private final int n;
    private final int r;
    private final double[] v;
    private final double userRidge;
    private final double clip;
    private final double halfRange;

    AlsItemStatistic(AlsParameters params, double[] v) {
        this.n = params.domain().items();
        this.r = params.rank();
        this.v = v;
        this.userRidge = params.userRidge();
        this.clip = params.clip();
        this.halfRange = params.domain().halfRange();
    }

    private int packed() {
        return r * (r + 1) / 2;
    }

    @Override
    public int size() {
        return Math.toIntExact((long) n * packed() + (long) n * r);
    }

    @Override
    public void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out) {
        double[] ui = LocalFits.ridge(items, centred, from, to, v, r, userRidge);
        double[] clipped = new double[r];
        DpAlsMechanism.clipFit(ui, clip, clipped, 0);
        long[] q = new long[r];
        FixedPointGram.quantize(clipped, 0, r, clip, q);
        int packed = packed();
        long rhsBase = (long) n * packed;
        double toGrid = SCALE / halfRange;
        for (int p = from; p < to; p++) {
            int j = items[p];
            long qy = Math.max(-MAX_Q, Math.min(MAX_Q, (long) (centred[p] * toGrid)));
            int gb = j * packed;
            int at = 0;
            for (int a = 0; a < r; a++) {
                long qa = q[a];
                out.add((int) (rhsBase + (long) j * r + a), qy * qa);
                for (int b = a; b < r; b++) {
                    out.add(gb + at++, qa * q[b]);
                }
            }
        }
    }

    /** [G_1 … G_n] (n blocks of r × r, full) followed by [b_1 … b_n] (n × r). */
    @Override
    public double[] finish(ExactSums sums) {
        double hu = Math.scalb(clip, -FixedPointGram.FRACTION_BITS);
        double hy = Math.scalb(halfRange, -FixedPointGram.FRACTION_BITS);
        double gramScale = hu * hu;
        double rhsScale = hy * hu;
        int packed = packed();
        double[] out = new double[n * r * r + n * r];
        for (int j = 0; j < n; j++) {
            int gb = j * r * r;
            int at = j * packed;
            for (int a = 0; a < r; a++) {
                for (int b = a; b < r; b++) {
                    double g = sums.value(at++, gramScale);
                    out[gb + a * r + b] = g;
                    out[gb + b * r + a] = g;
                }
            }
        }
        int rhsBase = n * packed;
        int rhsOut = n * r * r;
        for (int i = 0; i < n * r; i++) {
            out[rhsOut + i] = sums.value(rhsBase + i, rhsScale);
        }
        return out;
    }
}
