package io.privmat.mechanism.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.linalg.LinearAlgebra;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Sparse and non-negative PCA and the rank-k approximation on releases of planted structures. */
class PrincipalComponentsTest {

    static final int D = 30;

    /** n rows 0.5·g·v + 0.05·h, clipped to norm ≤ 1; returns XᵀX. */
    static double[] spiked(double[] v, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] rows = new double[n][D];
        for (int i = 0; i < n; i++) {
            double g = random.nextGaussian();
            for (int j = 0; j < D; j++) {
                rows[i][j] = 0.5 * g * v[j] + 0.05 * random.nextGaussian();
            }
            Releases.clip(rows[i]);
        }
        return Releases.gram(rows);
    }

    static double quadratic(double[] m, double[] x) {
        return PrincipalComponents.quadratic(m, D, x);
    }

    static double[] column(double[] m, int k, int c) {
        double[] out = new double[D];
        for (int i = 0; i < D; i++) {
            out[i] = m[i * k + c];
        }
        return out;
    }

    @Test
    void truncatedPowerMethodFindsAPlantedSparseSpike() {
        double[] v = new double[D];
        int[] support = {3, 11, 17, 25};
        for (int i = 0; i < support.length; i++) {
            v[support[i]] = (i % 2 == 0 ? 1 : -1) / 2.0;
        }
        double[] gram = spiked(v, 4000, 1);
        SecondMoment m = Releases.release(Releases.Kind.ANALYZE_GAUSS, gram, D, 0.5, 2);
        PrincipalComponents.Result r = PrincipalComponents.sparse(m, 2, 4, 100, 0.95);
        assertThat(r.supports()[0]).containsExactly(support);
        double[] x = column(r.components(), 2, 0);
        assertThat(Math.abs(java.util.stream.IntStream.range(0, D).mapToDouble(i -> x[i] * v[i]).sum()))
                .isGreaterThan(0.99);
        for (int c = 0; c < 2; c++) {
            double[] xc = column(r.components(), 2, c);
            assertThat(LinearRegression.norm(xc)).isCloseTo(1, within(1e-12));
            assertThat(java.util.Arrays.stream(xc).filter(e -> e != 0).count()).isLessThanOrEqualTo(4);
            double truth = quadratic(gram, xc);
            Bounds b = r.explainedVariance().get(c);
            assertThat(truth).isBetween(b.lower(), b.upper());
        }
        // Deterministic: a second call on the same release gives the same components.
        assertThat(PrincipalComponents.sparse(m, 2, 4, 100, 0.95).components()).containsExactly(r.components());
    }

    @Test
    void projectedPowerIterationFindsANonNegativeSpike() {
        double[] v = new double[D];
        for (int i = 0; i < 10; i++) {
            v[i] = 1 / Math.sqrt(10);
        }
        double[] gram = spiked(v, 4000, 3);
        SecondMoment m = Releases.release(Releases.Kind.WISHART, gram, D, 1.0, 4);
        PrincipalComponents.Result r = PrincipalComponents.nonNegative(m, 1, 100, 0.95);
        double[] x = column(r.components(), 1, 0);
        assertThat(java.util.Arrays.stream(x).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        double cos = java.util.stream.IntStream.range(0, D).mapToDouble(i -> x[i] * v[i]).sum();
        assertThat(cos).isGreaterThan(0.95);
        assertThat(quadratic(gram, x)).isBetween(r.explainedVariance().get(0).lower(),
                r.explainedVariance().get(0).upper());
    }

    @Test
    void lowRankBoundsHoldOnAnAnalyzeGaussRelease() {
        double[] v = new double[D];
        for (int i = 0; i < D; i++) {
            v[i] = (i % 3 == 0 ? 1 : 0.2) / Math.sqrt(D);
        }
        v = unit(v);
        double[] gram = spiked(v, 4000, 5);
        for (Releases.Kind kind : Releases.Kind.values()) {
            SecondMoment m = Releases.release(kind, gram, D, 1.0, 6);
            double[] probe = new double[D];
            probe[0] = 1;
            probe[1] = -2;
            LowRankApproximation.Result r = LowRankApproximation.of(m, 1, List.of(probe), 0.95);
            double[] truthValues = LinearAlgebra.eigen(gram, D).values();
            Bounds top = r.eigenvalues().get(0);
            assertThat(truthValues[0]).as(kind + " top eigenvalue").isBetween(top.lower(), top.upper());
            // ‖C − Ĉ₁‖₂ within its bound.
            double[] approx = new double[D * D];
            for (int i = 0; i < D; i++) {
                for (int j = 0; j < D; j++) {
                    approx[i * D + j] = gram[i * D + j] - top.estimate() * r.components()[i] * r.components()[j];
                }
            }
            assertThat(NoiseModelTest.spectral(approx, D)).as(kind + " approximation error")
                    .isLessThanOrEqualTo(r.approximationErrorBound());
            // The released direction is within the sin Θ bound of the true top eigenvector.
            double[] trueTop = LinearAlgebra.eigen(gram, D).topVectors(1);
            double cos = 0;
            for (int i = 0; i < D; i++) {
                cos += trueTop[i] * r.components()[i];
            }
            assertThat(Math.sqrt(Math.max(0, 1 - cos * cos))).as(kind + " sin Θ")
                    .isLessThanOrEqualTo(r.subspaceSinThetaBound());
            if (kind != Releases.Kind.JL) {
                // The JL sketch's whole-space envelope needs r ≫ d to say anything (r = 738, d = 30 here).
                assertThat(r.subspaceSinThetaBound()).as(kind + " informative").isLessThan(1);
            }
            double coordinate = r.components()[0] * probe[0] + r.components()[1] * probe[1];
            assertThat(r.projections().get(0).coordinates()[0]).isCloseTo(coordinate, within(1e-12));
        }
    }

    @Test
    void invalidParametersAreNamed() {
        SecondMoment m = Releases.release(Releases.Kind.ANALYZE_GAUSS, new double[D * D], D, 1.0, 7);
        assertThatThrownBy(() -> PrincipalComponents.sparse(m, 1, 0, 10, 0.95)).extracting("parameter").isEqualTo("s");
        assertThatThrownBy(() -> PrincipalComponents.sparse(m, 31, 2, 10, 0.95)).extracting("parameter").isEqualTo("k");
        assertThatThrownBy(() -> PrincipalComponents.nonNegative(m, 1, 0, 0.95)).extracting("parameter")
                .isEqualTo("iterations");
        assertThatThrownBy(() -> LowRankApproximation.of(m, 0, List.of(), 0.95)).extracting("parameter").isEqualTo("k");
        assertThatThrownBy(() -> LowRankApproximation.of(m, 1, List.of(new double[2]), 0.95)).extracting("parameter")
                .isEqualTo("vectors[0]");
    }

    static double[] unit(double[] v) {
        double n = LinearRegression.norm(v);
        double[] out = v.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] /= n;
        }
        return out;
    }
}
