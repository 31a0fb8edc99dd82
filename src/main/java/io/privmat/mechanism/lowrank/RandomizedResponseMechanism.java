package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;
import java.util.ArrayList;
import java.util.List;

/**
 * Randomized response (input perturbation), the baseline every low-rank mechanism must beat
 * (Hardt–Roth 2012's "naive" algorithm; docs/mechanisms/low-rank.md, "Randomized response").
 *
 * <p><b>Privacy</b>: the Gaussian mechanism on all m·d entries, L2 sensitivity 2B (one row replaced
 * by another of norm ≤ B; REPLACE_ONE only, since the output has one row per record), exact
 * discrete Gaussian noise on a grid. <b>Post-processing</b>: rank-k truncated SVD via the Gram of
 * the noisy rows (pass 1) and u = Â·v·diag(1/s) (pass 2, replaying the same secret noise stream),
 * so memory stays O(d² + m·k) instead of O(m·d); or, where the caller would hold the clean rows
 * between the passes anyway, the noisy rows held instead and the noise drawn once
 * ({@link #releaseHoldingNoise}, the same release). <b>Error</b>: ‖A − Â_k‖₂ ≤ σ_{k+1}(A) + 2‖N‖₂ with
 * ‖N‖₂ ≤ σ(√m + √d + t) with probability ≥ 1 − 2e^{−t²/2} (reported for ν = 0.05).
 *
 * <p>Optionally ({@link #withShrinkage()}) the released singular values are shrunk by the known
 * noise level ({@link SingularValueShrinkage}, Gavish–Donoho): noise-level components become 0, so a
 * noise-dominated answer is close to the all-zero one instead of far worse. Post-processing only.
 */
public final class RandomizedResponseMechanism {

    /** Largest m·d held in memory on the wide path (d > m): 25M float64, 200 MB per copy. */
    public static final long MAX_WIDE_ENTRIES = 25_000_000L;

    private final int m;
    private final int d;
    private final int k;
    private final GridNoise.GaussianPlan plan;
    private final boolean shrink;

    private RandomizedResponseMechanism(int m, int d, int k, GridNoise.GaussianPlan plan, boolean shrink) {
        this.m = m;
        this.d = d;
        this.k = k;
        this.plan = plan;
        this.shrink = shrink;
    }

    /** The same mechanism (same noise, same cost) with Gavish–Donoho shrinkage of the released s. */
    public RandomizedResponseMechanism withShrinkage() {
        return new RandomizedResponseMechanism(m, d, k, plan, true);
    }

    static double sensitivity(double rowBound) {
        return Math.nextUp(2 * rowBound * (1 + 0x1p-40));
    }

    public static RandomizedResponseMechanism forRho(int m, int d, int k, double rowBound, double rho) {
        double delta = sensitivity(rowBound);
        return new RandomizedResponseMechanism(m, d, k, GridNoise.gaussian(delta,
                GaussianCalibration.sigmaForRho(delta * GridNoise.CALIBRATION_MARGIN, rho), (long) m * d), false);
    }

    public static RandomizedResponseMechanism forApproxDp(int m, int d, int k, double rowBound, double epsilon,
            double delta) {
        double sens = sensitivity(rowBound);
        return new RandomizedResponseMechanism(m, d, k, GridNoise.gaussian(sens,
                GaussianCalibration.analyticSigma(epsilon, delta, sens * GridNoise.CALIBRATION_MARGIN), (long) m * d),
                false);
    }

    public GaussianLoss privacyLoss() {
        return plan.loss();
    }

    public double sigma() {
        return plan.sigma();
    }

    /** The grid plan of the entry noise. */
    public GridNoise.GaussianPlan plan() {
        return plan;
    }

    /**
     * The release reading the rows twice: pass 2 replays the secret noise stream, so only one block of
     * the noisy matrix is held at a time.
     */
    public Factorization release(RowStream rows, NoiseSource random) {
        return d > m ? releaseWide(rows, random) : releaseTall(rows, random, false);
    }

    /**
     * The same release (the same noise for the same source, bit for bit: the same draws, the same
     * Gram, the same products) reading the rows once and drawing the noise once: the noisy rows are
     * held, m·d values, in place of the clean rows a caller would otherwise hold between the passes.
     * For a caller whose choice between the two depends only on public values (m, d, the heap);
     * docs/mechanisms/low-rank.md, "Randomized response", one draw.
     */
    public Factorization releaseHoldingNoise(RowStream rows, NoiseSource random) {
        return d > m ? releaseWide(rows, random) : releaseTall(rows, random, true);
    }

    /**
     * d ≤ m: the Gram of the noisy rows in pass 1, u = Ã·v·diag(1/s) block by block after it, from
     * the held noisy blocks or from a second pass replaying the noise (identical values).
     */
    private Factorization releaseTall(RowStream rows, NoiseSource random, boolean holdNoise) {
        NoiseSource.Replayable noise = random.replayable();
        GramAccumulator gram = new GramAccumulator(d);
        NoiseSource first = noise.open();
        List<double[]> held = new ArrayList<>();
        // Without holdNoise, one buffer for the noisy rows of a block, reused by both passes: the
        // noisy m × d matrix is never held, only a block of it (docs/mechanisms/low-rank.md, memory).
        double[][] noisy = {new double[0]};
        rows.forEachBlock((block, count, firstRow) -> {
            noisy[0] = holdNoise ? new double[count * d] : atLeast(noisy[0], count * d);
            GridNoise.addGaussianParallel(plan, block, 0, count * d, noisy[0], first.split());
            gram.addRows(noisy[0], 0, count);
            if (holdNoise) {
                held.add(noisy[0]);
            }
        });
        SymmetricEigen e = LinearAlgebra.eigen(gram.result(), d);
        double[] s = new double[k];
        for (int j = 0; j < k; j++) {
            s[j] = Math.sqrt(Math.max(e.values()[j], 0));
        }
        double[] v = e.topVectors(k);
        double[] u = new double[m * k];
        int[] at = {0};
        RowStream.BlockVisitor leftFactor = (block, count, firstRow) -> {
            // u's rows of this block = Ã_block·v, written in place, then scaled by 1/s.
            LinearAlgebraOps.multiply(block, count, d, v, k, u, at[0] * k);
            for (int i = at[0] * k; i < (at[0] + count) * k; i++) {
                int j = i % k;
                u[i] = s[j] > 0 ? u[i] / s[j] : 0;
            }
            at[0] += count;
        };
        if (holdNoise) {
            for (double[] block : held) {
                leftFactor.block(block, block.length / d, at[0]);
            }
        } else {
            NoiseSource second = noise.open();
            rows.forEachBlock((block, count, firstRow) -> {
                noisy[0] = atLeast(noisy[0], count * d);
                GridNoise.addGaussianParallel(plan, block, 0, count * d, noisy[0], second.split());
                leftFactor.block(noisy[0], count, firstRow);
            });
        }
        return finish(u, s, v);
    }

    /**
     * d > m: the noisy matrix Ã (m × d) is held, the SVD comes from the m × m Gram ÃÃᵀ, and
     * v = Ãᵀ·u·diag(1/s). Same mechanism (the same noisy entries), different post-processing.
     */
    private Factorization releaseWide(RowStream rows, NoiseSource random) {
        if ((long) m * d > MAX_WIDE_ENTRIES) {
            throw new IllegalStateException("m·d exceeds " + MAX_WIDE_ENTRIES);
        }
        double[] noisy = new double[m * d];
        int[] at = {0};
        NoiseSource noise = random.split();
        double[][] part = {new double[0]};
        rows.forEachBlock((block, count, firstRow) -> {
            part[0] = atLeast(part[0], count * d);
            GridNoise.addGaussianParallel(plan, block, 0, count * d, part[0], noise.split());
            System.arraycopy(part[0], 0, noisy, at[0] * d, count * d);
            at[0] += count;
        });
        double[] g = new double[m * m];
        LinearAlgebraOps.multiplyTransB(noisy, m, d, noisy, m, g);
        SymmetricEigen e = LinearAlgebra.eigen(g, m);
        double[] s = new double[k];
        for (int j = 0; j < k; j++) {
            s[j] = Math.sqrt(Math.max(e.values()[j], 0));
        }
        double[] u = e.topVectors(k);
        double[] v = new double[d * k];
        LinearAlgebraOps.addMultiplyTransA(noisy, m, d, u, k, v);
        for (int c = 0; c < d; c++) {
            for (int j = 0; j < k; j++) {
                v[c * k + j] = s[j] > 0 ? v[c * k + j] / s[j] : 0;
            }
        }
        return finish(u, s, v);
    }

    /** {@code buffer} if it holds {@code length} values, else a new array that does. */
    private static double[] atLeast(double[] buffer, int length) {
        return buffer.length >= length ? buffer : new double[length];
    }

    /** u and v were computed with the raw s; shrinkage only replaces the released s. */
    private Factorization finish(double[] u, double[] s, double[] v) {
        Facts.Builder facts = facts();
        double[] released = s;
        if (shrink) {
            released = SingularValueShrinkage.forRelease(s, plan.sigma(), m, d, "noise level sigma", facts);
        }
        return new Factorization(u, released, v, m, d, k, facts.build());
    }

    private Facts.Builder facts() {
        Facts.Builder facts = Facts.builder(FactorizationFacts.VOCABULARY);
        facts.put(FactorizationFacts.SIGMA, plan.sigma());
        facts.put(FactorizationFacts.L2_SENSITIVITY, plan.loss().l2Sensitivity());
        double t = Math.sqrt(2 * Math.log(2 / 0.05));
        facts.put(FactorizationFacts.NOISE_SPECTRAL_NORM_BOUND95, plan.sigma() * (Math.sqrt(m) + Math.sqrt(d) + t));
        facts.put(FactorizationFacts.ERROR_BOUND,
                "‖A − Âₖ‖₂ ≤ σₖ₊₁(A) + 2·noiseSpectralNormBound95 with probability ≥ 0.95 "
                + "(before shrinkage)");
        return facts;
    }
}
