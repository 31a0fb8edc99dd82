package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.covariance.BinghamAcceptance;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.GrassmannSampler;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.privacy.PrivacyFloors;
import io.privmat.privacy.PureDp;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Pure ε-DP matrix approximation on the unitary orbit (Mangoubi and Vishnoi, "Private matrix
 * approximation and geometry of unitary orbits", 2022; docs/mechanisms/low-rank.md, "Orbit sampling"),
 * on M = XᵀX with rows of norm ≤ B.
 *
 * <p><b>Algorithm 2 (unknown spectrum)</b>: ε₁ = ε/4 releases the eigenvalues with discrete Laplace
 * noise (L1 sensitivity B² under ADD_REMOVE, 2B² under REPLACE_ONE); ε₂ = 3ε/4 selects the
 * subspace. <b>Subspace</b>, by {@code spectrum}:
 * <ul>
 *   <li>{@code PROJECTION} (default): MV Algorithm 1 with Λ = P_k, exactly — the exponential
 *       mechanism ∝ exp(ε₂·tr(UᵀMU)/(2B²)) on Gr(k, d), i.e. the matrix Bingham with
 *       A = (ε₂/(2B²))·(λ_max·I − M), drawn by the exact {@link GrassmannSampler} (the Bingham
 *       sampler for k = 1). Utility sensitivity B² (tr(UᵀΔMU) ∈ [−B², B²]): pure ε₂-DP. The reported
 *       s are the roots of the released top-k eigenvalues: they describe the subspace's spectrum and
 *       are not tied to individual columns (tying them would need another private step).</li>
 *   <li>{@code PEELING}: for a general spectrum, the documented iterative alternative: sequential
 *       Bingham draws with deflation (Kapralov–Talwar / Amin et al., {@link EigenSamplingMechanism},
 *       ε/(k+1) per step). Pure ε-DP by composition; it samples a different distribution than MV
 *       Algorithm 1 and MV's utility theorem does not apply ("MV-inspired").</li>
 * </ul>
 * <b>Sampler failure</b> is data-independent: PROJECTION is offered for k = 1 only (the matrix
 * Bingham sampler's acceptance for k ≥ 2 provably tends to 0 on concentrated spectra, see
 * {@link GrassmannSampler}), and both spectra use the vector sampler, every proposal of which is
 * accepted with probability at least {@link io.privmat.mechanism.covariance.BinghamAcceptance#lowerBound}(d)
 * ≥ √(2/(e·d)) whatever the data; its proposal cap, fixed from d, makes a failure at most 2^-50 likely on
 * every input. d above {@link io.privmat.mechanism.covariance.BinghamAcceptance#maxDimension()} (16384)
 * is refused (docs/mechanisms/low-rank.md).
 */
public final class OrbitSamplingMechanism {

    /** How the subspace is drawn. */
    public enum Spectrum { PROJECTION, PEELING }

    private final int d;
    private final int k;
    private final double rowBound;
    private final NeighbouringRelation relation;
    private final BigDecimal epsilon;
    private final Spectrum spectrum;

    private OrbitSamplingMechanism(int d, int k, double rowBound, NeighbouringRelation relation, BigDecimal epsilon,
            Spectrum spectrum) {
        this.d = d;
        this.k = k;
        this.rowBound = rowBound;
        this.relation = relation;
        this.epsilon = epsilon;
        this.spectrum = spectrum;
    }

    public static OrbitSamplingMechanism of(int d, int k, double rowBound, NeighbouringRelation relation,
            BigDecimal epsilon, Spectrum spectrum) {
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k must be in [1, d]");
        }
        if (spectrum == Spectrum.PROJECTION && k > 1) {
            // The matrix Bingham sampler's acceptance for k ≥ 2 has infimum 0 over the data (A = diag(0, L, …),
            // L → ∞; GrassmannSampler): no data-independent cap exists, so a failure would be a data-dependent bit.
            throw new PrivacyArgumentException("params.k", "1 for spectrum PROJECTION", "spectrum PROJECTION "
                    + "samples exactly only k = 1 with a failure probability bounded independently of the data; "
                    + "use spectrum PEELING for k = " + k);
        }
        EigenSamplingMechanism.requireBoundedSampler(d);
        // The smallest share of ε (ε/4 for the eigenvalues, or ε/(k+1) when peeling) is checked
        // here, at planning, not when the release builds its noise after the charge.
        double eps = Decimals.toDoubleDown(epsilon);
        PrivacyFloors.epsilon("epsilon", eps);
        PrivacyFloors.epsilon("epsilon / " + (spectrum == Spectrum.PEELING ? k + 1 : 4),
                Math.nextDown(eps / (spectrum == Spectrum.PEELING ? k + 1 : 4)));
        return new OrbitSamplingMechanism(d, k, rowBound, relation, epsilon, spectrum);
    }

    /**
     * The data-independent bound on the probability that a release fails (a sampler reaches its
     * proposal cap): one vector Bingham draw for PROJECTION (k = 1), k draws when PEELING.
     */
    public double failureProbabilityBound() {
        return (spectrum == Spectrum.PEELING ? k : 1) * BinghamAcceptance.FAILURE_BOUND;
    }

    /** PROJECTION: the eigenvalue noise on XᵀX (discrete Laplace, ε/4); PEELING uses eigenvector sampling's. */
    public LaplaceVectorMechanism eigenvalueNoise() {
        return spectrum == Spectrum.PEELING ? EigenSamplingMechanism.of(d, k, rowBound, relation, epsilon)
                .eigenvalueNoise() : LaplaceVectorMechanism.of(Sensitivities.eigenvaluesL1(rowBound, relation),
                        Math.nextDown(epsilon.doubleValue() / 4), d);
    }

    /**
     * β of the subspace draw ∝ exp(β·tr(UᵀMU)) on M = XᵀX: ε₂/(2B²) for PROJECTION; for PEELING each
     * step's ε/(4(k + 1)) on XᵀX/B², i.e. ε/(4(k + 1)B²) on XᵀX.
     */
    public double binghamParameter() {
        double b2 = rowBound * rowBound;
        if (spectrum == Spectrum.PEELING) {
            return EigenSamplingMechanism.of(d, k, rowBound, relation, epsilon).binghamParameter() / b2;
        }
        double eps = epsilon.doubleValue();
        double eps1 = Math.nextDown(eps / 4);
        return Math.nextDown(eps - eps1) * (1 - 1e-12) / (2 * Math.nextUp(b2 * (1 + 0x1p-39)));
    }

    /** Whether the eigenvalue noise is in the units of XᵀX/B² (PEELING) rather than of XᵀX. */
    public boolean normalisedEigenvalues() {
        return spectrum == Spectrum.PEELING;
    }

    public PureDp privacyLoss() {
        return new PureDp(epsilon);
    }

    public Factorization release(double[] gram, double upperClamp, NoiseSource random) {
        Facts.Builder facts = Facts.builder(FactorizationFacts.VOCABULARY);
        facts.put(FactorizationFacts.SPECTRUM, spectrum.name());
        if (spectrum == Spectrum.PEELING) {
            // upperClamp bounds XᵀX's eigenvalues (n·B²); eigenvector sampling clamps the normalised
            // eigenvalues of XᵀX/B², whose bound is n: divide, or B < 1 truncates the top eigenvalues.
            CovarianceRelease r = EigenSamplingMechanism.of(d, k, rowBound, relation, epsilon)
                    .release(gram, upperClamp / (rowBound * rowBound), false, random);
            double[] s = Arrays.stream(r.eigenvalues()).map(x -> Math.sqrt(Math.max(x, 0))).toArray();
            facts.put(FactorizationFacts.GUARANTEE,
                    "pure epsilon-DP by composition of k+1 steps (peeling); MV-inspired");
            return new Factorization(null, s, r.components(), 0, d, k, facts.build());
        }
        double eps = epsilon.doubleValue();
        double eps1 = Math.nextDown(eps / 4);
        double eps2 = Math.nextDown(eps - eps1) * (1 - 1e-12);
        SymmetricEigen e = LinearAlgebra.eigen(gram, d);
        double[] lambda = LaplaceVectorMechanism.of(Sensitivities.eigenvaluesL1(rowBound, relation), eps1, d)
                .release(e.values(), random);
        for (int j = 0; j < d; j++) {
            lambda[j] = Math.min(Math.max(lambda[j], 0), upperClamp);
        }
        Arrays.sort(lambda);
        double b2 = Math.nextUp(rowBound * rowBound * (1 + 0x1p-39));
        double[] a = new double[d];
        for (int j = 0; j < d; j++) {
            a[j] = eps2 / (2 * b2) * (e.values()[0] - e.values()[j]);
        }
        double[] x = GrassmannSampler.sample(a, k, random);
        // Back from M's eigenbasis: U = V·x (d × k).
        double[] u = new double[d * k];
        for (int i = 0; i < d; i++) {
            for (int c = 0; c < k; c++) {
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    sum += e.vectors()[i * d + j] * x[j * k + c];
                }
                u[i * k + c] = sum;
            }
        }
        double[] s = new double[k];
        for (int j = 0; j < k; j++) {
            s[j] = Math.sqrt(lambda[d - 1 - j]);
        }
        facts.put(FactorizationFacts.EPSILON_EIGENVALUES, eps1);
        facts.put(FactorizationFacts.EPSILON_SUBSPACE, eps2);
        facts.put(FactorizationFacts.GUARANTEE,
                "pure epsilon-DP; the subspace is MV Algorithm 1 with Λ = P_k, sampled exactly");
        facts.put(FactorizationFacts.NOTE,
                "the k columns span the private subspace; s are the released top-k eigenvalues' roots, "
                + "not tied to individual columns");
        return new Factorization(null, s, u, 0, d, k, facts.build());
    }
}
