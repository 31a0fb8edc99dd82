package io.privmat.mechanism.completion;

import io.privmat.mechanism.linalg.FixedPointGram;
import org.jspecify.annotations.Nullable;

/**
 * One iteration of private Frank–Wolfe over the users: each user first takes the local step of the
 * previous release's broadcast ({@link FrankWolfeLocal}: the paper's step, or the FULLY_CORRECTIVE
 * refit; none before the first release or after a noise-dominated direction), then contributes the
 * Gram of their gradient row P_Ω(Yᵢ − Y*ᵢ) clipped to C_t ({@link Grams#clipRow}) and quantised to
 * the grid C_t·2⁻²² without growing. The state is the user's predictions on their observed items.
 */
final class GradientGramStatistic implements UserStatistic {

    private static final long serialVersionUID = 1L;

    /** The broadcast each user steps with before contributing. */
    record Step(double @Nullable [] direction, double lambdaPrime, double eta, double nuclearRadius, double rowBound,
            double @Nullable [] basis, int rank, double ridge) implements java.io.Serializable {

        static Step paper(double[] v, double lambdaPrime, double eta, double k, double bound) {
            return new Step(v, lambdaPrime, eta, k, bound, null, 0, 0);
        }

        static Step refit(double[] basis, int rank, double ridge) {
            return new Step(null, 0, 0, 0, 0, basis, rank, ridge);
        }
    }

    private final int n;
    /** C_t, or NaN for a pass that only steps (no Gram). */
    private final double clip;
    private final @Nullable Step step;

    GradientGramStatistic(int n, double clip, @Nullable Step step) {
        this.n = n;
        this.clip = clip;
        this.step = step;
    }

    @Override
    public int size() {
        return Double.isNaN(clip) ? 0 : Grams.packedSize(n);
    }

    @Override
    public boolean advances() {
        return step != null;
    }

    @Override
    public void advance(int[] items, double[] centred, int from, int to, double[] state) {
        Step s = step;
        if (s == null) {
            return;
        }
        if (s.basis() != null) {
            FrankWolfeLocal.refit(state, null, items, centred, from, to, s.basis(), s.rank(), s.ridge());
        } else {
            FrankWolfeLocal.step(state, null, items, centred, from, to, s.direction(), s.lambdaPrime(), s.eta(),
                    s.nuclearRadius(), s.rowBound());
        }
    }

    @Override
    public void contribute(int[] items, double[] centred, int from, int to, double[] state, ExactSums out) {
        if (Double.isNaN(clip)) {
            return;
        }
        int count = to - from;
        double[] a = new double[count];
        for (int p = 0; p < count; p++) {
            a[p] = state[from + p] - centred[from + p];
        }
        Grams.clipRow(a, 0, count, clip);
        long[] q = new long[count];
        FixedPointGram.quantize(a, 0, count, clip, q);
        Grams.addPacked(q, items, from, count, n, out);
    }

    @Override
    public double[] finish(ExactSums sums) {
        if (Double.isNaN(clip)) {
            return new double[0];
        }
        double h = Math.scalb(clip, -FixedPointGram.FRACTION_BITS);
        return Grams.unpack(sums, n, h * h);
    }
}
