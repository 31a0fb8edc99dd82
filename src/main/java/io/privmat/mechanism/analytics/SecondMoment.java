package io.privmat.mechanism.analytics;

import io.privmat.mechanism.linalg.GramAccumulator;

/**
 * A released noisy second-moment matrix Ĉ ≈ XᵀX (d × d, row-major, symmetric) and its public noise
 * model: what every analytic of this package reads. Nothing here touches the dataset.
 */
public record SecondMoment(int d, double[] matrix, NoiseModel noise) {

    public SecondMoment {
        if (d < 1 || matrix.length != d * d) {
            throw new IllegalArgumentException("need a d×d matrix");
        }
    }

    /** The JL sketch M (r × d, row-major) as Ĉ = MᵀM/r, whose rows are i.i.d. N(0, C + W·I). */
    public static SecondMoment ofSketch(double[] sketch, int r, int d, double floor) {
        if (sketch.length != r * d) {
            throw new IllegalArgumentException("need an r×d sketch");
        }
        GramAccumulator g = new GramAccumulator(d);
        g.addRows(sketch, 0, r);
        double[] c = g.result();
        for (int i = 0; i < c.length; i++) {
            c[i] /= r;
        }
        return new SecondMoment(d, c, new NoiseModel.JohnsonLindenstrauss(r, floor));
    }

    /** Ĉ − τI, an unbiased estimate of XᵀX. */
    public double[] debiased() {
        double[] out = matrix.clone();
        double tau = noise.shift();
        for (int i = 0; i < d; i++) {
            out[i * d + i] -= tau;
        }
        return out;
    }

    double entry(int i, int j) {
        return matrix[i * d + j];
    }
}
