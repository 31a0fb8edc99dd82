package io.privmat.mechanism.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The noise models' envelopes hold on seeded releases (they are bounds: at 95% they should hold on
 * nearly every run) and are not vacuous (the typical noise is a sizeable fraction of the bound).
 */
class NoiseModelTest {

    static final int D = 8;

    /** Spectral norm of a symmetric matrix. */
    static double spectral(double[] m, int d) {
        double[] v = LinearAlgebra.eigen(m, d).values();
        return Math.max(Math.abs(v[0]), Math.abs(v[d - 1]));
    }

    @Test
    void additiveEnvelopesBoundTheNoiseAndAreNotVacuous() {
        double[] zero = new double[D * D];
        for (Releases.Kind kind : new Releases.Kind[] {Releases.Kind.ANALYZE_GAUSS, Releases.Kind.WISHART}) {
            int runs = 100;
            double[] norms = new double[runs];
            double bound = 0;
            for (int s = 0; s < runs; s++) {
                SecondMoment m = Releases.release(kind, zero, D, 1.0, 200 + s);
                norms[s] = spectral(m.debiased(), D);
                bound = m.noise().envelope(D, 0.05).additive();
            }
            Arrays.sort(norms);
            assertThat(norms[runs - 1]).as(kind + ": largest noise norm").isLessThanOrEqualTo(bound);
            assertThat(norms[runs / 2]).as(kind + ": median noise norm").isGreaterThan(0.3 * bound);
        }
    }

    @Test
    void jlEnvelopeBoundsTheRelativeNoise() {
        double[][] rows = Releases.regressionRows(3000, D, new double[] {1, 1, 1, 1, 1, 1, 1}, 5);
        double[] gram = Releases.gram(rows);
        int runs = 60;
        int inside = 0;
        double widest = 0;
        NoiseModel.Envelope envelope = null;
        for (int s = 0; s < runs; s++) {
            SecondMoment m = Releases.release(Releases.Kind.JL, gram, D, 1.0, 300 + s);
            envelope = m.noise().envelope(D, 0.05);
            // The extreme ratios xᵀĈx / xᵀ(C + WI)x are the eigenvalues of W^{-1/2}·Ĉ·W^{-1/2}, W = C + wI.
            double[] cw = gram.clone();
            for (int i = 0; i < D; i++) {
                cw[i * D + i] += m.noise().shift();
            }
            SymmetricEigen e = LinearAlgebra.eigen(cw, D);
            double[] whiten = new double[D * D];
            for (int i = 0; i < D; i++) {
                for (int j = 0; j < D; j++) {
                    double s2 = 0;
                    for (int c = 0; c < D; c++) {
                        s2 += e.vectors()[i * D + c] * e.vectors()[j * D + c] / Math.sqrt(e.values()[c]);
                    }
                    whiten[i * D + j] = s2;
                }
            }
            double[] tmp = new double[D * D];
            double[] ratio = new double[D * D];
            multiply(whiten, m.matrix(), tmp);
            multiply(tmp, whiten, ratio);
            double[] values = LinearAlgebra.eigen(ratio, D).values();
            if (values[0] <= envelope.upperFactor() && values[D - 1] >= envelope.lowerFactor()) {
                inside++;
            }
            widest = Math.max(widest, Math.max(values[0] - 1, 1 - values[D - 1]));
        }
        assertThat(inside).isGreaterThanOrEqualTo(58);
        assertThat(widest).as("the relative noise reaches a good part of the envelope")
                .isGreaterThan(0.3 * (envelope.upperFactor() - 1));
    }

    @Test
    void sparseEnvelopesSitBetweenOneSupportAndTheWholeSpace() {
        NoiseModel g = new NoiseModel.Gaussian(2.0, 1e-6);
        double one = g.envelope(5, 0.05).additive();
        double sparse = g.sparseEnvelope(200, 5, 0.05).additive();
        double whole = g.envelope(200, 0.05).additive();
        assertThat(sparse).isGreaterThan(one).isLessThan(whole);
        NoiseModel.Envelope env = g.envelope(3, 0.05);
        // An interval always holds its (clamped) estimate.
        Bounds b = env.invert(-5, 0);
        assertThat(b.estimate()).isZero();
        assertThat(b.lower()).isZero();
        assertThat(b.upper()).isPositive();
    }

    private static void multiply(double[] a, double[] b, double[] out) {
        for (int i = 0; i < D; i++) {
            for (int j = 0; j < D; j++) {
                double s = 0;
                for (int c = 0; c < D; c++) {
                    s += a[i * D + c] * b[c * D + j];
                }
                out[i * D + j] = s;
            }
        }
    }
}
