package io.privmat.mechanism.lowrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.covariance.BinghamAcceptance;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.privacy.PureDp;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Mangoubi–Vishnoi rank-k covariance with a private spectrum. */
class OrbitCovarianceMechanismTest {

    static final int D = 8;

    /** Rows with a spectrum 0.6², 0.4², 0.25² on the first axes plus small noise, clipped to norm ≤ 1. */
    static double[] gram(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        GramAccumulator acc = new GramAccumulator(D);
        double[] scales = {0.6, 0.4, 0.25};
        double[] row = new double[D];
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int j = 0; j < D; j++) {
                row[j] = (j < 3 ? scales[j] : 0.02) * random.nextGaussian();
                norm += row[j] * row[j];
            }
            norm = Math.sqrt(norm);
            for (int j = 0; j < D; j++) {
                row[j] /= Math.max(1, norm);
            }
            acc.addRows(row, 0, 1);
        }
        return acc.result();
    }

    @Test
    void largeEpsilonRecoversTheTopSubspaceAndSpectrum() {
        double[] c = gram(5000, 1);
        SymmetricEigen truth = LinearAlgebra.eigen(c, D);
        for (int k : new int[] {1, 3}) {
            OrbitCovarianceMechanism m = OrbitCovarianceMechanism.of(D, k, 1.0, NeighbouringRelation.REPLACE_ONE,
                    BigDecimal.valueOf(20));
            CovarianceRelease r = m.release(c, 5000, TestNoiseSources.seeded(2));
            assertThat(r.k()).isEqualTo(k);
            double half = m.eigenvalueHalfWidth(0.01);
            for (int j = 0; j < k; j++) {
                assertThat(r.eigenvalues()[j]).isCloseTo(truth.values()[j], within(half));
                double cos = 0;
                for (int i = 0; i < D; i++) {
                    cos += r.components()[i * k + j] * truth.vectors()[i * D + j];
                }
                assertThat(Math.abs(cos)).as("k = %d, column %d", k, j).isGreaterThan(0.99);
            }
            // Orthonormal columns and Ĉ = U·Λ̂·Uᵀ.
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    double dot = 0;
                    for (int i = 0; i < D; i++) {
                        dot += r.components()[i * k + a] * r.components()[i * k + b];
                    }
                    assertThat(dot).isCloseTo(a == b ? 1 : 0, within(1e-9));
                }
            }
            double entry = 0;
            for (int j = 0; j < k; j++) {
                entry += r.eigenvalues()[j] * r.components()[j] * r.components()[k + j];
            }
            assertThat(r.covariance()[1]).isCloseTo(entry, within(1e-9));
        }
    }

    @Test
    void seededAndPureAndBoundedByTheSamplerPolicy() {
        double[] c = gram(500, 3);
        OrbitCovarianceMechanism m = OrbitCovarianceMechanism.of(D, 2, 1.0, NeighbouringRelation.ADD_REMOVE,
                BigDecimal.ONE);
        assertThat(m.privacyLoss()).isEqualTo(new PureDp(BigDecimal.ONE));
        assertThat(m.failureProbabilityBound()).isEqualTo(2 * 0x1p-50);
        assertThat(m.release(c, Double.POSITIVE_INFINITY, TestNoiseSources.seeded(4)).covariance())
                .containsExactly(m.release(c, Double.POSITIVE_INFINITY, TestNoiseSources.seeded(4)).covariance());
        // Above the dimension where the sampler's proven acceptance bound keeps its cap finite: refused.
        int tooWide = BinghamAcceptance.maxDimension() + 1;
        assertThatThrownBy(() -> OrbitCovarianceMechanism.of(tooWide, 2, 1.0, NeighbouringRelation.ADD_REMOVE,
                BigDecimal.ONE)).isInstanceOf(PrivacyArgumentException.class).extracting("parameter").isEqualTo("cols");
        // Eigenvalue noise: Laplace with the L1 sensitivity 2B² (replace-one) at ε/4.
        OrbitCovarianceMechanism r = OrbitCovarianceMechanism.of(D, 1, 1.0, NeighbouringRelation.REPLACE_ONE,
                BigDecimal.ONE);
        assertThat(r.eigenvalueScale()).isCloseTo(8, within(8 * 0.01));
    }
}
