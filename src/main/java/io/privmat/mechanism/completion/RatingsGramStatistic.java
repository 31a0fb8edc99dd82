package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsDomain;

import io.privmat.mechanism.linalg.FixedPointGram;

/**
 * W = Σᵢ yᵢᵀyᵢ over the users' centred ratings (private SVD's one release): each user's observed
 * vector, of norm ≤ L by the domain, quantised to the grid L·2⁻²² without growing
 * ({@link FixedPointGram#quantize}), its Gram added as integers. Stateless.
 */
final class RatingsGramStatistic implements UserStatistic {

    private static final long serialVersionUID = 1L;

    private final int n;
    private final double bound;

    RatingsGramStatistic(RatingsDomain domain) {
        this.n = domain.items();
        this.bound = domain.rowBound();
    }

    @Override
    public int size() {
        return Grams.packedSize(n);
    }

    @Override
    public void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out) {
        int count = to - from;
        long[] q = new long[count];
        FixedPointGram.quantize(centred, from, count, bound, q);
        Grams.addPacked(q, items, from, count, n, out);
    }

    @Override
    public double[] finish(ExactSums sums) {
        double h = Math.scalb(bound, -FixedPointGram.FRACTION_BITS);
        return Grams.unpack(sums, n, h * h);
    }
}
