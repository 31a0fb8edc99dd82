package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.FixedPointWeightedSums;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.noise.GaussianMatrices;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.Zcdp;
import java.math.BigDecimal;

/**
 * Hardt and Roth (STOC 2012), "Beating randomized response on incoherent matrices": a private range
 * finder, a public pruning threshold, and a projection step with per-column noise (the paper's
 * Sections 4.1–4.2, with the range finder's sensitivity redone for row-level neighbours:
 * docs/mechanisms/low-rank.md, "Hardt–Roth").
 *
 * <p>In our orientation X is m × d (rows = records). With ℓ = k + p and a Gaussian Ω (d × ℓ) drawn by
 * the job, released to nobody (it goes only where the rows are: {@link RowStream#project} may run on
 * the engine's executors, docs/scale-out.md, "Trust boundary"):
 * <ol>
 *   <li>Y = XΩ + N₁. A replaced row changes Y by e_i(vᵀΩ) with ‖v‖ ≤ 2B; for that fixed v, vᵀΩ is
 *       a Gaussian ℓ-vector, so ‖vᵀΩ‖ ≤ 2B(√ℓ + √(2 ln(1/δ₀))) except with probability δ₀ over Ω
 *       (as in the paper's Lemma 4.1): the Gaussian mechanism with that Δ₁, and δ₀ added to δ.</li>
 *   <li>Q = thin QR(Y); Q̃ = Q with entries above the public threshold τ = √(4μ₀ℓ·ln m/m) zeroed.</li>
 *   <li>B = Q̃ᵀX + N₂ (Q̃'s entries on the grid 2⁻³⁸, the rows clipped and quantised to B·2⁻²², so
 *       that Q̃ᵀX is exact in integers: {@link RowStream#weightedSums}), noise scaled per row t by
 *       the column's largest entry s_t = ‖Q̃_{:,t}‖_∞ (rows scaled by 1/s_t have Frobenius
 *       sensitivity ≤ √ℓ·2B), or by the largest row norm of Q̃ (sensitivity 2B) — whichever adds
 *       less noise; the choice uses public Q̃ only.</li>
 *   <li>SVD of B (ℓ × d): u = Q̃·U_B[:, :k], s, v = V_B[:, :k]. Optionally ({@link #withShrinkage()})
 *       s is shrunk by Gavish–Donoho for the projection noise, taken as white at its largest row
 *       level σ₂·max_t scale_t (conservative when the rows' levels differ) — post-processing.</li>
 * </ol>
 * <b>Privacy</b>: δ₀ = δ/4 for Ω; the two Gaussian steps share (ε, 3δ/4) by Gaussian-DP composition
 * (μ₁ = μ₂ = μ* / √2 with μ* the analytic-Gaussian μ at (ε, 3δ/4)). Charged as (ε, δ) under BASIC and
 * as δ₀-approximate ρ-zCDP with ρ = μ*²/2 (inflated for the grid) under ZCDP; the catalogue composes
 * {@link #stepLoss()} twice with the failure event {@link #projectionFailureProbability()}
 * ({@code io.privmat.mechanism.catalog.PrivacyMap#compose}). REPLACE_ONE only
 * (the output has one row per record). u is Q̃·U_B and need not be orthonormal (Q̃ is pruned).
 */
public final class HardtRothMechanism {

    private final int m;
    private final int d;
    private final int k;
    private final int l;
    private final double rowBound;
    private final double coherence;
    private final double unitSigma;
    private final double delta0;
    private final BigDecimal delta0Exact;
    private final ApproxDp approxDp;
    private final double rhoPerStep;
    private final boolean shrink;

    private HardtRothMechanism(int m, int d, int k, int oversampling, double rowBound, double coherence,
            BigDecimal epsilon, BigDecimal delta, boolean shrink) {
        this.shrink = shrink;
        this.m = m;
        this.d = d;
        this.k = k;
        this.l = Math.min(d, k + oversampling);
        this.rowBound = rowBound;
        this.coherence = coherence;
        double eps = Decimals.toDoubleDown(epsilon);
        double del = Decimals.toDoubleDown(delta);
        this.delta0 = del / 4;
        // Exact in decimal; the double δ₀ used for Δ₁ is ≤ δ/4 (δ rounded down), so Ω's failure
        // probability is at most the δ/4 charged.
        this.delta0Exact = delta.divide(BigDecimal.valueOf(4));
        // μ* at (ε, 3δ/4) for unit sensitivity inflated by the grid; each step gets μ*/√2.
        double sigmaStar = GaussianCalibration.analyticSigma(eps, 0.75 * del, GridNoise.CALIBRATION_MARGIN);
        this.unitSigma = Math.sqrt(2) * sigmaStar;
        this.approxDp = new ApproxDp(epsilon, delta);
        double inflated = GridNoise.CALIBRATION_MARGIN;
        this.rhoPerStep = Math.nextUp(inflated * inflated / (2 * unitSigma * unitSigma));
        // The charge assumes both steps' grids scale with their sensitivities (unit sensitivity above),
        // which fails once a grid would be subnormal; the grids are built in the release, after the
        // charge, so a tiny public B must be refused here, from public values (GridNoise refuses such a
        // plan): the range finder's, and the projection's at its smallest sensitivity 2B (the release's
        // scaled sensitivity is 2B or √ℓ·2B, and the grid shrinks with the sensitivity).
        rangeFinderPlan();
        double twoB = 2 * rowBound * (1 + 0x1p-40);
        GridNoise.gaussian(twoB, twoB * unitSigma, (long) l * d);
    }

    public static HardtRothMechanism of(int m, int d, int k, int oversampling, double rowBound, double coherence,
            BigDecimal epsilon, BigDecimal delta) {
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k must be in [1, d]");
        }
        return new HardtRothMechanism(m, d, k, oversampling, rowBound, coherence, epsilon, delta, false);
    }

    /** The same mechanism (same noise, same cost) with Gavish–Donoho shrinkage of the released s. */
    public HardtRothMechanism withShrinkage() {
        return new HardtRothMechanism(m, d, k, l - k, rowBound, coherence, approxDp.epsilon(), approxDp.delta(), true);
    }

    /** The (ε, δ) this run satisfies (charged under BASIC): the two steps' (ε, 3δ/4) plus Ω's δ/4. */
    public ApproxDp approxDp() {
        return approxDp;
    }

    /**
     * The (ε, δ) the two Gaussian steps were calibrated to together, by Gaussian-DP composition:
     * (ε, 3δ/4).
     */
    public ApproxDp stepsCalibration() {
        return new ApproxDp(approxDp.epsilon(), approxDp.delta().multiply(new BigDecimal("0.75")));
    }

    /**
     * The loss of one of the two Gaussian steps: ρ = Δ′²/(2σ²) for unit sensitivity inflated by the
     * grid. Rounded up by two ulps, not one: the two steps were charged nextUp(2ρ) before their
     * composition moved into the catalogue, and nextUp(2ρ) = 2·nextUp(ρ) exactly, so stored plans
     * rebuild to the same loss.
     */
    public Zcdp stepLoss() {
        return new Zcdp(Decimals.exact(Math.nextUp(rhoPerStep)));
    }

    /**
     * σ_Y of the range finder's noise: (2B(√ℓ + √(2 ln(1/δ₀))))·σ* on the grid; public, the same value
     * the release uses (its facts' {@code rangeFinderSigma}).
     */
    public double rangeFinderSigma() {
        return rangeFinderPlan().sigma();
    }

    /** The range finder's noise: Δ₁ = 2B(√ℓ + √(2 ln(1/δ₀))), σ_Y = Δ₁·σ*, m·ℓ entries. */
    GridNoise.GaussianPlan rangeFinderPlan() {
        double delta1 = rangeFinderSensitivity();
        return GridNoise.gaussian(delta1, delta1 * unitSigma, (long) m * l);
    }

    private double rangeFinderSensitivity() {
        double twoB = 2 * rowBound * (1 + 0x1p-40);
        return twoB * (Math.sqrt(l) + Math.sqrt(2 * Math.log(1 / delta0)));
    }

    /**
     * τ = √(4·μ₀·ℓ·ln(r)/m), the pruning threshold; finite for every coherence μ₀ ≤ Double.MAX_VALUE
     * (the parameter's range): where 4·μ₀·ℓ·ln(r) overflows, the same value as √μ₀·√(4ℓ·ln(r)/m). τ ≥ 1
     * prunes nothing (Q's entries are at most 1).
     */
    public static double pruningThreshold(double coherence, int l, double r, double m) {
        double tau = Math.sqrt(4 * coherence * l * Math.log(r) / m);
        return Double.isFinite(tau) ? tau : Math.sqrt(coherence) * Math.sqrt(4 * l * Math.log(r) / m);
    }

    /** ℓ = min(d, k + oversampling). */
    public int oversampledRank() {
        return l;
    }

    /** The probability δ/4 (exact) that Ω's norm bound fails, charged as δ on top of the two steps. */
    public BigDecimal projectionFailureProbability() {
        return delta0Exact;
    }

    public Factorization release(RowStream rows, NoiseSource random) {
        double twoB = 2 * rowBound * (1 + 0x1p-40);
        double[] omega = new double[d * l];
        GaussianMatrices.fillStandardNormal(omega, random);
        GridNoise.GaussianPlan plan1 = rangeFinderPlan();
        // 1–2. Range finder and its orthonormal basis (Q in Y's array).
        double[] q = rangeBasis(rows, omega, plan1, random);
        double tau = pruningThreshold(coherence, l, m, m);
        int pruned = 0;
        for (int i = 0; i < q.length; i++) {
            if (Math.abs(q[i]) > tau) {
                q[i] = 0;
                pruned++;
            }
            // On the weights' grid (2⁻³⁸, within [−1, 1]; Q's entries are): the projection below is
            // exact in integers, and the scales come from the very weights it uses.
            q[i] = FixedPointWeightedSums.onGrid(q[i]);
        }
        double[] colMax = new double[l];
        double maxRowNorm = 0;
        for (int i = 0; i < m; i++) {
            double row = 0;
            for (int t = 0; t < l; t++) {
                colMax[t] = Math.max(colMax[t], Math.abs(q[i * l + t]));
                row += q[i * l + t] * q[i * l + t];
            }
            maxRowNorm = Math.max(maxRowNorm, Math.sqrt(row));
        }
        // 3. Projection: B = Q̃ᵀX̃, second pass, exact in integers (rows clipped and quantised to B·2⁻²²).
        double[] b = rows.weightedSums(q, l, d, rowBound);
        double perColumnEnergy = 0;
        for (double s : colMax) {
            perColumnEnergy += l * s * s;
        }
        double singleEnergy = l * maxRowNorm * maxRowNorm;
        boolean perColumn = perColumnEnergy <= singleEnergy;
        double scaledSensitivity = perColumn ? Math.sqrt(l) * twoB : twoB;
        double[] scale = new double[l];
        for (int t = 0; t < l; t++) {
            scale[t] = perColumn ? Math.max(colMax[t], Double.MIN_NORMAL) : Math.max(maxRowNorm, Double.MIN_NORMAL);
        }
        double[] scaled = new double[l * d];
        for (int t = 0; t < l; t++) {
            for (int c = 0; c < d; c++) {
                scaled[t * d + c] = b[t * d + c] / scale[t];
            }
        }
        GridNoise.GaussianPlan plan2 = GridNoise.gaussian(scaledSensitivity, scaledSensitivity * unitSigma, (long) l * d);
        double[] noisyScaled = new double[l * d];
        GridNoise.addGaussianParallel(plan2, scaled, 0, scaled.length, noisyScaled, random.split());
        double[] noisyB = new double[l * d];
        for (int t = 0; t < l; t++) {
            for (int c = 0; c < d; c++) {
                noisyB[t * d + c] = noisyScaled[t * d + c] * scale[t];
            }
        }
        // 4. Factors.
        Dense.SmallSvd svd = Dense.svdWide(noisyB, l, d, k);
        double[] u = new double[m * k];
        LinearAlgebraOps.multiply(q, m, l, svd.uB(), k, u);
        double maxScale = 0;
        for (double sc : scale) {
            maxScale = Math.max(maxScale, sc);
        }
        double[] released = svd.s();
        Facts.Builder facts = Facts.builder(FactorizationFacts.VOCABULARY);
        if (shrink) {
            released = SingularValueShrinkage.forRelease(svd.s(), plan2.sigma() * maxScale, l, d,
                    "projection noise at its largest row level", facts);
        }
        facts.put(FactorizationFacts.OVERSAMPLED_RANK, l);
        facts.put(FactorizationFacts.RANGE_FINDER_SENSITIVITY, rangeFinderSensitivity());
        facts.put(FactorizationFacts.RANGE_FINDER_SIGMA, plan1.sigma());
        facts.put(FactorizationFacts.PRUNING_THRESHOLD, tau);
        facts.put(FactorizationFacts.PRUNED_FRACTION, (double) pruned / q.length);
        facts.put(FactorizationFacts.PROJECTION_NOISE,
                perColumn ? "per column (√ℓ·s_t scaling)" : "single (max row norm of Q̃)");
        // Spectral norms of the two noise matrices (95%, Gordon + Gaussian concentration), the
        // ingredients of Hardt and Roth's error bound (their Corollary 4.5 and Theorem 4.7).
        double t = Math.sqrt(2 * Math.log(4 / 0.05));
        facts.put(FactorizationFacts.RANGE_FINDER_NOISE_BOUND95, plan1.sigma() * (Math.sqrt(m) + Math.sqrt(l) + t));
        facts.put(FactorizationFacts.PROJECTION_NOISE_BOUND95,
                plan2.sigma() * maxScale * (Math.sqrt(l) + Math.sqrt(d) + t));
        if (pruned == 0 && l - k >= 2) {
            // Range finder: Y = [X σ_Y·I]·[Ω; G] is HMT's range finder on [X σ_Y·I] (Hardt–Roth Thm 4.2),
            // so E‖(I − QQᵀ)X‖_F ≤ √(1 + k/(p − 1))·(Σ_{j>k} σ_j(X)² + (m − k)σ_Y²)^{1/2}. Projection: Q is
            // orthonormal when nothing is pruned, and B's truncation obeys randomized response's bound
            // (docs/mechanisms/low-rank.md, "Randomized response").
            facts.put(FactorizationFacts.ERROR_BOUND,
                    String.format(java.util.Locale.ROOT, "E‖A − Âₖ‖_F ≤ %.4g·(‖A − A_k‖²_F + %d·"
                    + "rangeFinderSigma²)^½ + ‖A − A_k‖_F + 2√(2k)·(σₖ₊₁(A) + projectionNoiseBound95), the last term "
                    + "with probability ≥ 0.95 (Hardt–Roth 2012, Thm 4.2 and Thm 4.7, for Gaussian noise; before shrinkage)",
                    Math.sqrt(1 + (double) k / (l - k - 1)), m - k));
        }
        return new Factorization(u, released, svd.v(), m, d, k, facts.build());
    }

    /**
     * Q = thin QR(XΩ + N₁), then the public pruning applied by the caller. XΩ is written row by
     * row into Y (m × ℓ; {@link RowStream#project}, the same bits however the rows are split), the
     * noise is added in place (each entry is read before it is written) and Q overwrites Y
     * ({@link InPlaceQr}, the same bits as {@link Dense#thinQ}): one m × ℓ array, never m × d
     * (docs/mechanisms/low-rank.md, memory).
     */
    private double[] rangeBasis(RowStream rows, double[] omega, GridNoise.GaussianPlan plan1, NoiseSource random) {
        double[] y = new double[m * l];
        rows.project(omega, l, y);
        GridNoise.addGaussianParallel(plan1, y, 0, y.length, y, random.split());
        // m < ℓ (a thin Q of m columns) keeps the library's QR.
        return m >= l ? InPlaceQr.thinQ(y, m, l) : Dense.thinQ(y, m, l);
    }
}
