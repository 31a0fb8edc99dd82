package io.privmat.mechanism.covariance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.math.BigDecimal;
import java.math.MathContext;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.junit.jupiter.api.Test;

/**
 * The data-independent acceptance bound that sizes the Bingham sampler's proposal cap
 * (docs/mechanisms/covariance.md, "Sampler failure"): each step of its proof checked against the
 * sampler's own code, the bound checked by Monte Carlo on adversarial spectra (fixed seeds, one-sided
 * with four standard errors), and its sharpness on the corner A = diag(0, L, …, L). The long sweep up to
 * q = 1000 is BinghamAcceptanceBenchmark (src/bench/java, the benchmark source set).
 */
class BinghamAcceptanceTest {

    @Test
    void theBoundIsGammaTimesItsClosedFormAndAtLeastTheStirlingCorollary() {
        // q = 2 and q = 4 in closed form: Γ(1)·e/√(2πe) = √(e/2π) and Γ(2)·(e/2)²/√(2πe).
        assertThat(BinghamAcceptance.lowerBound(2)).isCloseTo(Math.sqrt(Math.E / (2 * Math.PI)), within(1e-6));
        assertThat(BinghamAcceptance.lowerBound(4))
                .isCloseTo(Math.E * Math.E / 4 / Math.sqrt(2 * Math.PI * Math.E), within(1e-6));
        for (int q = 2; q <= 20_000; q += q < 100 ? 1 : 97) {
            double bound = BinghamAcceptance.lowerBound(q);
            double stirling = BinghamAcceptance.asymptoticBound(q);
            // Binet: Γ(z) = √(2π/z)(z/e)^z·e^{μ(z)}, 0 < μ(z) < 1/(12z), z = q/2.
            assertThat(bound).as("q=%d", q).isGreaterThanOrEqualTo(stirling * (1 - 0x1p-20))
                    .isLessThanOrEqualTo(stirling * Math.exp(1.0 / (6 * q)));
        }
        assertThat(BinghamAcceptance.lowerBound(1)).isEqualTo(1);
    }

    @Test
    void theAcceptanceProbabilityOfAProposalIsTheDirectionalFormula() {
        // Step (1) of the proof: exp(log ratio) = K(q)·φ(λ·m/(2S)) with θ = g/‖g‖, S = Σ wⱼθⱼ², m = Σ wⱼ,
        // λ = b/m, φ(h) = h^{q/2}e^{−h}/Γ(q/2), K(q) = Γ(q/2)(2e/q)^{q/2}; g is recovered from x as Ω^{1/2}x.
        NoiseSource random = TestNoiseSources.seeded(21);
        for (int q : new int[] {2, 3, 7, 40, 300}) {
            for (double[] a : new double[][] {AcceptanceEstimate.corner(q, 1, 1e6), AcceptanceEstimate.random(q, 30, random),
                AcceptanceEstimate.quadratic(q, 500), new double[q]}) {
                BinghamSampler.Envelope env = BinghamSampler.Envelope.of(a);
                double m = 0;
                for (double o : env.omega()) {
                    m += 1 / o;
                }
                double lambda = env.b() / m;
                double half = q / 2.0;
                double logK = BinghamAcceptance.logGamma(half) + half * (1 + Math.log(2) - Math.log(q));
                double[] x = new double[q];
                for (int p = 0; p < 50; p++) {
                    BinghamSampler.propose(env.scale(), random, x);
                    double norm2 = 0;
                    double ws = 0;
                    for (int j = 0; j < q; j++) {
                        double g2 = env.omega()[j] * x[j] * x[j];
                        norm2 += g2;
                        ws += g2 / env.omega()[j];
                    }
                    double h = lambda * m / (2 * (ws / norm2));
                    double formula = logK + half * Math.log(h) - h - BinghamAcceptance.logGamma(half);
                    double ratio = BinghamSampler.logRatio(x, env.shifted(), env.omega(), env.logM());
                    assertThat(ratio).as("q=%d", q).isCloseTo(formula, within(1e-9 * (1 + Math.abs(formula))))
                            .isLessThanOrEqualTo(1e-12);
                }
            }
        }
    }

    @Test
    void theEnvelopeParameterKeepsTheExactWeightSumInItsWindow() {
        // Step (2) needs λ = 1/Σ 1/(b + 2aⱼ) ≤ 1 exactly and pays λ^{q/2}: Σ ∈ [1, 1 + 2⁻³⁶], checked in
        // 60-digit arithmetic on the doubles b and aⱼ the sampler uses.
        NoiseSource random = TestNoiseSources.seeded(22);
        BigDecimal upper = BigDecimal.ONE.add(new BigDecimal(0x1p-36));
        for (int q : new int[] {2, 3, 10, 100, 1000, 5000}) {
            for (double[] a : new double[][] {AcceptanceEstimate.corner(q, 1, 1e12), AcceptanceEstimate.corner(q, 1, 1e-9),
                AcceptanceEstimate.corner(q, q / 2, 3), AcceptanceEstimate.random(q, 1e4, random),
                AcceptanceEstimate.geometric(q, 1e3, 0.9), AcceptanceEstimate.quadratic(q, 1e5)}) {
                BinghamSampler.Envelope env = BinghamSampler.Envelope.of(a);
                MathContext mc = new MathContext(60);
                BigDecimal b = new BigDecimal(env.b());
                BigDecimal sum = BigDecimal.ZERO;
                for (double v : env.shifted()) {
                    sum = sum.add(BigDecimal.ONE.divide(b.add(new BigDecimal(v).multiply(BigDecimal.valueOf(2))), mc), mc);
                }
                assertThat(sum).as("q=%d", q).isBetween(BigDecimal.ONE, upper);
            }
        }
    }

    @Test
    void theCornerSpectrumAttainsTheBound() {
        // A = diag(0, L, …, L) with L = 10⁸: the acceptance is the bound up to O(q/L) — the bound is sharp,
        // so this also fails if lowerBound were too low (not only if it were too high).
        NoiseSource random = TestNoiseSources.seeded(23);
        int[] qs = {3, 30, 300};
        int[] n = {40_000, 20_000, 6_000};
        for (int i = 0; i < qs.length; i++) {
            AcceptanceEstimate e = AcceptanceEstimate.of(AcceptanceEstimate.corner(qs[i], 1, 1e8), n[i], random);
            assertThat(e.mean()).as("q=%d", qs[i])
                    .isCloseTo(BinghamAcceptance.lowerBound(qs[i]), within(4 * e.standardError()));
        }
    }

    @Test
    void theMeasuredAcceptanceIsAtLeastTheBoundOnAdversarialSpectra() {
        NoiseSource random = TestNoiseSources.seeded(24);
        for (int q : new int[] {2, 5, 30, 200, 1000}) {
            double bound = BinghamAcceptance.lowerBound(q);
            int n = q <= 30 ? 20_000 : q <= 200 ? 4_000 : 1_500;
            double[][] spectra = q == 1000
                    ? new double[][] {AcceptanceEstimate.corner(q, 1, 1e4), AcceptanceEstimate.geometric(q, 1e4, 0.5)}
                    : new double[][] {AcceptanceEstimate.corner(q, 1, 10), AcceptanceEstimate.corner(q, 1, 1e6),
                        AcceptanceEstimate.corner(q, Math.min(2, q - 1), 1e6), AcceptanceEstimate.geometric(q, 1e3, 0.5),
                        AcceptanceEstimate.random(q, 100, random), AcceptanceEstimate.quadratic(q, 1e4), new double[q]};
            for (double[] a : spectra) {
                AcceptanceEstimate e = AcceptanceEstimate.of(a, n, random);
                assertThat(e.mean() + 4 * e.standardError()).as("q=%d", q).isGreaterThanOrEqualTo(bound);
            }
        }
    }

    @Test
    void capsMakeFailureAtMost2ToTheMinus50WithinTheWorkLimit() {
        int max = BinghamAcceptance.maxDimension();
        assertThat(max).isEqualTo(BinghamAcceptance.MAX_SUPPORTED_DIMENSION).isGreaterThanOrEqualTo(5000);
        for (int q = 2; q <= max; q++) {
            long n = BinghamAcceptance.proposals(q);
            assertThat(n).isPositive();
            assertThat(-n * BinghamAcceptance.lowerBound(q)).isLessThanOrEqualTo(Math.log(0x1p-50));
            assertThat((double) n * q).isLessThanOrEqualTo(BinghamAcceptance.MAX_WORK);
            long cap = BinghamSampler.maxProposals(q);
            assertThat(cap).isGreaterThanOrEqualTo(n);
            assertThat((double) cap * q).isLessThanOrEqualTo(Math.max(BinghamAcceptance.MAX_WORK, (double) n * q));
        }
        // d = 784 (Fashion-MNIST): about 1 200 proposals suffice for 2^-50.
        assertThat(BinghamAcceptance.proposals(784)).isBetween(1000L, 1300L);
        assertThat(BinghamAcceptance.proposals(max + 1)).isEqualTo(-1);
    }

    @Test
    void theMatrixEnvelopeHasNoDataIndependentBoundForTwoColumns() {
        // For k = 2 and A = diag(0, L, …, L), XᵀΩX has the eigenvalue 1/w₂ for every orthonormal X, so every
        // proposal's ratio is at most exp(−(q/2)·φ(b/(q·w₂))) → 0 as L grows (GrassmannSampler): PROJECTION
        // with k ≥ 2 stays refused. The vector sampler on the same A keeps its bound.
        NoiseSource random = TestNoiseSources.seeded(25);
        int q = 6;
        int k = 2;
        double previous = 0;
        for (double big : new double[] {1e2, 1e4, 1e6}) {
            double[] a = AcceptanceEstimate.corner(q, 1, big);
            BinghamSampler.Envelope env = BinghamSampler.Envelope.of(a);
            double w2 = 1 / env.omega()[1];
            double u = env.b() / (q * w2);
            double logCeiling = -(q / 2.0) * (u - 1 - Math.log(u));
            QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(q, k);
            for (int p = 0; p < 200; p++) {
                double[] z = new double[q * k];
                for (int j = 0; j < q; j++) {
                    for (int c = 0; c < k; c++) {
                        z[j * k + c] = ContinuousSamplers.standardNormal(random) * env.scale()[j];
                    }
                }
                DMatrixRMaj m = DMatrixRMaj.wrap(q, k, z);
                assertThat(qr.decompose(m)).isTrue();
                double[] x = qr.getQ(null, true).getData();
                assertThat(GrassmannSampler.logRatio(x, k, env.shifted(), env.omega(), k * env.logM()))
                        .isLessThanOrEqualTo(logCeiling + 1e-9);
            }
            if (previous != 0) {
                assertThat(logCeiling).isLessThan(previous - 10);
            }
            previous = logCeiling;
            AcceptanceEstimate vector = AcceptanceEstimate.of(a, 20_000, random);
            assertThat(vector.mean() + 4 * vector.standardError()).isGreaterThanOrEqualTo(BinghamAcceptance.lowerBound(q));
        }
        assertThat(previous).isLessThan(Math.log(1e-9));
    }
}
