package io.privmat.mechanism.audit;

import io.privmat.mechanism.GaussianVectorMechanism;
import io.privmat.mechanism.LaplaceVectorMechanism;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.covariance.AnalyzeGaussMechanism;
import io.privmat.mechanism.covariance.EigenSamplingMechanism;
import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.lowrank.NoisyPowerMechanism;
import io.privmat.mechanism.lowrank.OrbitSamplingMechanism;
import io.privmat.mechanism.lowrank.PrivateOjaMechanism;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.mechanism.regression.AdaSspMechanism;
import io.privmat.mechanism.sketch.JlGraphSketch;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import io.privmat.privacy.Conversions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The audited mechanisms: each on a small exact instance, with a worst-case neighbouring pair for
 * its relation (docs/privacy-audit.md), the claimed (ε, δ), and a mutant that under-calibrates its
 * noise. Every output is reduced to one or two post-processed statistics, which cannot increase
 * the privacy loss, so a lower bound on the statistics' ε is a lower bound on the mechanism's.
 */
final class AuditCases {

    private AuditCases() {}

    /** One release on a fixed input, reduced to its audited statistics. */
    @FunctionalInterface
    interface Release {
        double[] sample(NoiseSource random);
    }

    /**
     * @param samples samples per side (D and D′) in CI; the benchmark multiplies it
     */
    record AuditCase(String mechanism, String relation, double claimedEpsilon, double delta, String mutation,
            int samples, Release honestD, Release honestNeighbour, Release mutantD, Release mutantNeighbour) {

        @Override
        public String toString() {
            return mechanism + " / " + relation;
        }
    }

    static final double B = 1;
    private static final double R = 1 / Math.sqrt(2);

    static List<AuditCase> all() {
        List<AuditCase> cases = new ArrayList<>();
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(laplace(rel));
        }
        cases.add(laplaceEpsilonTimes15());
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(gaussian(rel));
        }
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(analyzeGauss(rel));
        }
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(wishart(rel));
        }
        cases.add(jlMatrix());
        cases.add(jlGraph());
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(eigenSampling(rel));
        }
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(orbitProjection(rel));
        }
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(adaSsp(rel));
        }
        cases.add(randomizedResponse());
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(noisyPower(rel, 1));
        }
        cases.add(noisyPower(NeighbouringRelation.ADD_REMOVE, 4));
        for (NeighbouringRelation rel : NeighbouringRelation.values()) {
            cases.add(privateOja(rel, 1));
        }
        cases.add(privateOja(NeighbouringRelation.ADD_REMOVE, 4));
        return cases;
    }

    /** Column sums, d = 1: the row x = B against its absence (ADD_REMOVE) or against −B (REPLACE_ONE). */
    static AuditCase laplace(NeighbouringRelation rel) {
        double eps = 1;
        double l1 = Sensitivities.columnSumsL1(B, 1, rel);
        LaplaceVectorMechanism honest = LaplaceVectorMechanism.of(l1, eps, 1);
        LaplaceVectorMechanism mutant = LaplaceVectorMechanism.of(l1 / 2, eps, 1);
        double[] d = {B};
        double[] n = rel == NeighbouringRelation.ADD_REMOVE ? new double[] {0} : new double[] {-B};
        return new AuditCase("Laplace column sums (d=1)", rel.name(), eps, 0, "sensitivity halved", 100_000,
                r -> honest.release(d, r), r -> honest.release(n, r),
                r -> mutant.release(d, r), r -> mutant.release(n, r));
    }

    /** As {@link #laplace} under ADD_REMOVE, with a mutant whose noise is calibrated to ε × 1.5. */
    static AuditCase laplaceEpsilonTimes15() {
        double eps = 1;
        double l1 = Sensitivities.columnSumsL1(B, 1, NeighbouringRelation.ADD_REMOVE);
        LaplaceVectorMechanism honest = LaplaceVectorMechanism.of(l1, eps, 1);
        LaplaceVectorMechanism mutant = LaplaceVectorMechanism.of(l1, 1.5 * eps, 1);
        double[] d = {B};
        double[] n = {0};
        return new AuditCase("Laplace column sums (d=1)", "ADD_REMOVE", eps, 0, "noise for epsilon x 1.5", 100_000,
                r -> honest.release(d, r), r -> honest.release(n, r),
                r -> mutant.release(d, r), r -> mutant.release(n, r));
    }

    /**
     * Column sums, d = 2, ρ = 0.5 (μ ≈ 1): the row (B, B)/√2 against its absence or its negation;
     * statistic out₀ + out₁ (the projection on the difference). Claimed δ is the loss's exact δ(ε = 1).
     */
    static AuditCase gaussian(NeighbouringRelation rel) {
        double l2 = Sensitivities.columnSumsL2(B, rel);
        GaussianVectorMechanism honest = GaussianVectorMechanism.forRho(l2, 0.5, 2);
        GaussianVectorMechanism mutant = GaussianVectorMechanism.forRho(l2 / 2, 0.5, 2);
        double eps = 1;
        double delta = honest.privacyLoss().delta(eps);
        double[] d = {B * R, B * R};
        double[] n = rel == NeighbouringRelation.ADD_REMOVE ? new double[] {0, 0} : new double[] {-B * R, -B * R};
        return new AuditCase("Gaussian column sums (d=2, rho=0.5)", rel.name(), eps, delta, "sensitivity halved",
                100_000, r -> sum(honest.release(d, r)), r -> sum(honest.release(n, r)),
                r -> sum(mutant.release(d, r)), r -> sum(mutant.release(n, r)));
    }

    /**
     * Analyze Gauss, d = 2, ρ = 0.5: XᵀX = e₁e₁ᵀ against 0 (ADD_REMOVE; statistic C₀₀) or against
     * e₂e₂ᵀ (REPLACE_ONE, orthogonal rows are the worst case; statistic C₀₀ − C₁₁).
     */
    static AuditCase analyzeGauss(NeighbouringRelation rel) {
        AnalyzeGaussMechanism honest = AnalyzeGaussMechanism.forRho(2, B, rel, 0.5);
        AnalyzeGaussMechanism mutant = AnalyzeGaussMechanism.forRho(2, B * R, rel, 0.5);
        double eps = 1;
        double delta = honest.privacyLoss().delta(eps);
        double[] d = {B * B, 0, 0, 0};
        double[] n = rel == NeighbouringRelation.ADD_REMOVE ? new double[] {0, 0, 0, 0} : new double[] {0, 0, 0, B * B};
        // 15 000 samples: each release splits its d² draws over the cores, which costs more than the draws.
        return new AuditCase("Analyze Gauss (d=2, rho=0.5)", rel.name(), eps, delta, "sensitivity halved",
                15_000, r -> diagonal(honest.release(d, r), rel), r -> diagonal(honest.release(n, r), rel),
                r -> diagonal(mutant.release(d, r), rel), r -> diagonal(mutant.release(n, r), rel));
    }

    /** Additive Wishart (ε, δ) = (1, 0.01), same pairs and statistics as Analyze Gauss. */
    static AuditCase wishart(NeighbouringRelation rel) {
        BigDecimal eps = BigDecimal.ONE;
        BigDecimal delta = new BigDecimal("0.01");
        WishartMechanism honest = WishartMechanism.of(2, B, eps, delta);
        // Noise scale B²/64 while the rows still have norm B: a sensitivity 64 times too small.
        WishartMechanism mutant = WishartMechanism.of(2, B / 8, eps, delta);
        double[] d = {B * B, 0, 0, 0};
        double[] n = rel == NeighbouringRelation.ADD_REMOVE ? new double[] {0, 0, 0, 0} : new double[] {0, 0, 0, B * B};
        return new AuditCase("Wishart (d=2, k=" + honest.degrees() + ")", rel.name(), 1, 0.01,
                "noise scale B^2/64", 100_000, r -> diagonal(honest.release(d, r), rel),
                r -> diagonal(honest.release(n, r), rel), r -> diagonal(mutant.release(d, r), rel),
                r -> diagonal(mutant.release(n, r), rel));
    }

    /**
     * JL matrix sketch, d = 1, (ε, δ) = (1, 0.01), η = 0.9, ν = 0.5 (r = 14): the row B against its
     * absence (the sketch treats ADD_REMOVE and REPLACE_ONE alike; a rank-one change of norm B²);
     * statistic ln‖M‖².
     */
    static AuditCase jlMatrix() {
        BigDecimal eps = BigDecimal.ONE;
        BigDecimal delta = new BigDecimal("0.01");
        JlMatrixSketch honest = JlMatrixSketch.of(1, B, eps, delta, 0.9, 0.5);
        JlMatrixSketch mutant = JlMatrixSketch.of(1, B / 8, eps, delta, 0.9, 0.5);
        double[] d = {B * B};
        double[] n = {0};
        return new AuditCase("JL matrix sketch (d=1, r=" + honest.parameters().r() + ")", "ADD_REMOVE", 1, 0.01,
                "floor W/64", 100_000, r -> logNorm(honest.release(d, r)), r -> logNorm(honest.release(n, r)),
                r -> logNorm(mutant.release(d, r)), r -> logNorm(mutant.release(n, r)));
    }

    /**
     * JL graph sketch on the smallest admitted vertex set, (ε, δ) = (1, 0.05), η = 0.95, ν = 0.9:
     * one edge {0, 1} of weight 1 against no edge; statistic ln‖M(e₀ − e₁)‖².
     */
    static AuditCase jlGraph() {
        BigDecimal eps = BigDecimal.ONE;
        BigDecimal delta = new BigDecimal("0.05");
        // Twice the smallest admitted vertex count, so that the edge keeps half its weight (1 − w/n = 1/2).
        int vertices = 2 * (int) Math.ceil(JlGraphSketch.of(1_000_000, eps, delta, 0.95, 0.9).parameters().floor());
        JlGraphSketch honest = JlGraphSketch.of(vertices, eps, delta, 0.95, 0.9);
        // The mutant claims the same (ε, δ) for a weight change of 256 (256 parallel unit edges).
        int r = honest.parameters().r();
        EdgeSource one = v -> v.edge(0, 1, 1);
        EdgeSource heavy = v -> {
            for (int i = 0; i < 256; i++) {
                v.edge(0, 1, 1);
            }
        };
        EdgeSource none = v -> { };
        return new AuditCase("JL graph sketch (n=" + vertices + ", r=" + r + ")", "EDGE", 1, 0.05,
                "edge weight 256", 5_000, rr -> edgeStat(honest.release(one, rr), r),
                rr -> edgeStat(honest.release(none, rr), r), rr -> edgeStat(honest.release(heavy, rr), r),
                rr -> edgeStat(honest.release(none, rr), r));
    }

    /**
     * Eigenvector sampling, d = 2, k = 1, ε = 1: {e₁} against {} (ADD_REMOVE) or {e₁, e₁} against
     * {e₁, e₂} (REPLACE_ONE: eigenvalues (2, 0) vs (1, 1), utility of e₁ 2 vs 1); statistics
     * (top released eigenvalue, |u₀|).
     */
    static AuditCase eigenSampling(NeighbouringRelation rel) {
        BigDecimal eps = BigDecimal.ONE;
        EigenSamplingMechanism honest = EigenSamplingMechanism.of(2, 1, B, rel, eps);
        EigenSamplingMechanism mutant = EigenSamplingMechanism.of(2, 1, B / 3, rel, eps);
        double[][] pair = coveragePair(rel);
        double inf = Double.POSITIVE_INFINITY;
        return new AuditCase("Eigenvector sampling (d=2, k=1)", rel.name(), 1, 0, "sensitivity / 9", 40_000,
                r -> covStat(honest.release(pair[0], inf, false, r)), r -> covStat(honest.release(pair[1], inf, false, r)),
                r -> covStat(mutant.release(pair[0], inf, false, r)), r -> covStat(mutant.release(pair[1], inf, false, r)));
    }

    /** Orbit sampling, PROJECTION, d = 2, k = 1, ε = 1; pairs and statistics as eigenvector sampling. */
    static AuditCase orbitProjection(NeighbouringRelation rel) {
        BigDecimal eps = BigDecimal.ONE;
        OrbitSamplingMechanism honest = OrbitSamplingMechanism.of(2, 1, B, rel, eps,
                OrbitSamplingMechanism.Spectrum.PROJECTION);
        OrbitSamplingMechanism mutant = OrbitSamplingMechanism.of(2, 1, B / 3, rel, eps,
                OrbitSamplingMechanism.Spectrum.PROJECTION);
        double[][] pair = coveragePair(rel);
        double inf = Double.POSITIVE_INFINITY;
        return new AuditCase("Orbit sampling PROJECTION (d=2, k=1)", rel.name(), 1, 0, "sensitivity / 9", 40_000,
                r -> orbitStat(honest.release(pair[0], inf, r)), r -> orbitStat(honest.release(pair[1], inf, r)),
                r -> orbitStat(mutant.release(pair[0], inf, r)), r -> orbitStat(mutant.release(pair[1], inf, r)));
    }

    /**
     * AdaSSP, one predictor and a response (d = 2), ρ = 0.5 in all (three releases, ρ/3 each): the row
     * (B, 0) against its absence (ADD_REMOVE) or against (0, B) (REPLACE_ONE); both move λ_min(XᵀX) and
     * XᵀX by B² and Xᵀy by 0, the largest normalised movement for one predictor. Audited before the
     * post-processing (which cannot increase the loss); statistic: the likelihood-ratio direction
     * λ̂_min/σ₁² + X̂ᵀX/σ₂². Claimed δ: the composed loss's exact δ(ε = 1).
     */
    static AuditCase adaSsp(NeighbouringRelation rel) {
        AdaSspMechanism honest = AdaSspMechanism.forRho(1, B, rel, 0.5, 0.05);
        AdaSspMechanism mutant = AdaSspMechanism.forRho(1, B * R, rel, 0.5, 0.05);
        double eps = 1;
        double mu = Math.sqrt(honest.losses().stream().mapToDouble(l -> l.mu() * l.mu()).sum());
        double delta = Conversions.gdpDelta(mu, eps);
        double[] d = {B * B, 0, 0, 0};
        double[] n = rel == NeighbouringRelation.ADD_REMOVE ? new double[] {0, 0, 0, 0} : new double[] {0, 0, 0, B * B};
        return new AuditCase("AdaSSP (p=1, rho=0.5)", rel.name(), eps, delta, "sensitivities halved", 20_000,
                r -> adaStat(honest, d, r), r -> adaStat(honest, n, r), r -> adaStat(mutant, d, r),
                r -> adaStat(mutant, n, r));
    }

    /**
     * Randomized response, m = d = k = 2, ρ = 0.5 (μ ≈ 1), REPLACE_ONE only (one output row per
     * record): the rows ((B, 0), (0, 0)) against ((−B, 0), (0, 0)), the row against its negation (an
     * L2 change of 2B, the sensitivity). With k = d the released reconstruction u·diag(s)·vᵀ is the
     * noisy matrix itself; statistic: its entry (0, 0), the projection on the difference.
     */
    static AuditCase randomizedResponse() {
        RandomizedResponseMechanism honest = RandomizedResponseMechanism.forRho(2, 2, 2, B, 0.5);
        RandomizedResponseMechanism mutant = RandomizedResponseMechanism.forRho(2, 2, 2, B / 2, 0.5);
        double eps = 1;
        double delta = honest.privacyLoss().delta(eps);
        RowStream d = rows(new double[] {B, 0, 0, 0}, 2);
        RowStream n = rows(new double[] {-B, 0, 0, 0}, 2);
        return new AuditCase("Randomized response (m=d=k=2, rho=0.5)", "REPLACE_ONE", eps, delta, "sensitivity halved",
                40_000, r -> reconstruction00(honest.release(d, r)), r -> reconstruction00(honest.release(n, r)),
                r -> reconstruction00(mutant.release(d, r)), r -> reconstruction00(mutant.release(n, r)));
    }

    /**
     * Offset of the Gram pair of the d = 1 power-method cases: C = C₀ + B² against C = C₀ (the row B
     * against its absence, or against the zero row: in d = 1 both relations move C by B², the Gram
     * sensitivity). The release is C·x + G for a secret random sign x = ±1; C₀ = 32 ≫ σ ≈ 1 makes the
     * sign recoverable from the output (P(|G| > 32) is negligible), so the released singular value
     * s = √|C·x + G| carries the whole Gaussian step: N(C₀ + B², σ²) against N(C₀, σ²) after squaring.
     */
    private static final double GRAM_OFFSET = 32;

    /**
     * Noisy power method, d = k = 1, ρ = 0.5 in total, L iterations. The output reveals only the
     * last step (in d = 1 the iterate is a sign), so for L = 1 the audit is tight (μ ≈ 1, like the
     * Gaussian column sums) and the mutant halves the sensitivity; for L = 4 the released statistic
     * carries one step's μ/√L = 0.5 of the claimed μ = 1 (the rest of the claimed loss is spent on
     * unreleased iterates): halving the sensitivity only brings it to μ = 1, exactly the claim and no
     * violation, so the weakest real violation there is the sensitivity divided by 4 (μ = 2 seen).
     */
    static AuditCase noisyPower(NeighbouringRelation rel, int iterations) {
        NoisyPowerMechanism honest = NoisyPowerMechanism.forRho(1, 1, iterations, B, 0.5);
        double scale = iterations == 1 ? R : 0.5;
        NoisyPowerMechanism mutant = NoisyPowerMechanism.forRho(1, 1, iterations, B * scale, 0.5);
        double eps = 1;
        double delta = Conversions.gdpDelta(Math.sqrt(iterations) * honest.stepLoss().mu(), eps);
        double[] d = {GRAM_OFFSET + B * B};
        double[] n = {GRAM_OFFSET};
        return new AuditCase("Noisy power (d=k=1, L=" + iterations + ", rho=0.5)", rel.name(), eps, delta,
                iterations == 1 ? "sensitivity halved" : "sensitivity / 4", 40_000,
                r -> new double[] {honest.release(d, r).s()[0]}, r -> new double[] {honest.release(n, r).s()[0]},
                r -> new double[] {mutant.release(d, r).s()[0]}, r -> new double[] {mutant.release(n, r).s()[0]});
    }

    /** Private Oja, d = 1, step size 1/B², ρ = 0.5 in total, L iterations; pairs, statistic, mutants as noisy power. */
    static AuditCase privateOja(NeighbouringRelation rel, int iterations) {
        PrivateOjaMechanism honest = PrivateOjaMechanism.forRho(1, iterations, 1 / (B * B), B, 0.5);
        double scale = iterations == 1 ? R : 0.5;
        PrivateOjaMechanism mutant = PrivateOjaMechanism.forRho(1, iterations, 1 / (B * B), B * scale, 0.5);
        double eps = 1;
        double delta = Conversions.gdpDelta(Math.sqrt(iterations) * honest.stepLoss().mu(), eps);
        double[] d = {GRAM_OFFSET + B * B};
        double[] n = {GRAM_OFFSET};
        return new AuditCase("Private Oja (d=1, L=" + iterations + ", rho=0.5)", rel.name(), eps, delta,
                iterations == 1 ? "sensitivity halved" : "sensitivity / 4", 40_000,
                r -> new double[] {honest.release(d, r).s()[0]}, r -> new double[] {honest.release(n, r).s()[0]},
                r -> new double[] {mutant.release(d, r).s()[0]}, r -> new double[] {mutant.release(n, r).s()[0]});
    }

    private static RowStream rows(double[] x, int m) {
        return visitor -> visitor.block(x.clone(), m, 0);
    }

    private static double[] reconstruction00(Factorization f) {
        double s = 0;
        for (int j = 0; j < f.k(); j++) {
            s += f.u()[j] * f.s()[j] * f.v()[j];
        }
        return new double[] {s};
    }

    private static double[] adaStat(AdaSspMechanism m, double[] gram, NoiseSource random) {
        AdaSspMechanism.Statistics r = m.statistics(gram, 2, 1, new int[] {0}, random);
        double s1 = m.minEigenvalueSigma();
        double s2 = m.gramSigma();
        return new double[] {r.minEigenvalue() / (s1 * s1) + r.gram()[0] / (s2 * s2)};
    }

    private static double[][] coveragePair(NeighbouringRelation rel) {
        return rel == NeighbouringRelation.ADD_REMOVE
                ? new double[][] {{B * B, 0, 0, 0}, {0, 0, 0, 0}}
                : new double[][] {{2 * B * B, 0, 0, 0}, {B * B, 0, 0, B * B}};
    }

    private static double[] sum(double[] v) {
        return new double[] {v[0] + v[1]};
    }

    private static double[] diagonal(double[] c, NeighbouringRelation rel) {
        return new double[] {rel == NeighbouringRelation.ADD_REMOVE ? c[0] : c[0] - c[3]};
    }

    private static double[] logNorm(double[] m) {
        double s = 0;
        for (double v : m) {
            s += v * v;
        }
        return new double[] {Math.log(s)};
    }

    private static double[] edgeStat(double[] sketch, int r) {
        double s = 0;
        for (int j = 0; j < r; j++) {
            double v = sketch[j] - sketch[r + j];
            s += v * v;
        }
        return new double[] {Math.log(s)};
    }

    private static double[] covStat(CovarianceRelease release) {
        return new double[] {release.eigenvalues()[0], Math.abs(release.components()[0])};
    }

    private static double[] orbitStat(Factorization f) {
        return new double[] {f.s()[0], Math.abs(f.v()[0])};
    }

    /** n outputs of one release from a seeded source. */
    static double[][] draw(Release release, int n, long seed) {
        NoiseSource random = TestNoiseSources.seeded(seed);
        double[][] out = new double[n][];
        for (int i = 0; i < n; i++) {
            out[i] = release.sample(random);
        }
        return out;
    }
}
