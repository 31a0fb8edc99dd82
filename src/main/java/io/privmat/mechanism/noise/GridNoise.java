package io.privmat.mechanism.noise;

import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PrivacyFloors;

/**
 * Plans for adding exact integer noise on a power-of-two grid, computed from public parameters
 * only (sensitivity, noise scale, dimension) before any data is read.
 *
 * <p>A value f is released as {@code g·(round(f/g) + Z)} with Z an exact integer sample. Rounding
 * moves each coordinate by at most g/2, so neighbouring inputs' rounded vectors differ by at most
 * Δ₂ + g·√p in L2 (Δ₁ + g·p in L1); that inflated sensitivity is what the plan charges. Outputs
 * are exact multiples of g, so the low-order bits of a double carry no information about f
 * (Mironov, CCS 2012). The grid is chosen so that the inflation is at most 2^-12 of Δ and the
 * noise spans at least 2^12 grid steps.
 */
public final class GridNoise {

    /** Relative size of the rounding inflation (and inverse resolution of noise): 2^-12. */
    static final int PRECISION_BITS = 12;

    /**
     * Calibrate σ for Δ·CALIBRATION_MARGIN, not Δ: a Gaussian plan charges the rounding-inflated
     * sensitivity Δ + g·√p ≤ Δ·(1 + 2^-12), so this margin (1 + 2^-11) keeps the loss it charges
     * within the budget the caller calibrated for.
     */
    public static final double CALIBRATION_MARGIN = 1 + 0x1p-11;
    /**
     * Largest discrete Laplace scale in grid steps: the sampler computes u + t·v in a long, with v
     * geometric, so 2^53 leaves 2^10 for v (overflow probability below e^-1000).
     */
    static final double MAX_LAPLACE_STEPS = 0x1p53;

    /**
     * Most stripes a bulk fill is split into. The partition of a fill into stripes, each drawing
     * from its own split of the source, is a function of the fill's length only (public), never of
     * the machine: a replayed stream (randomized response's second pass) then draws the same noise
     * whatever the number of CPUs, and a seeded source gives the same output everywhere. 16
     * stripes keep up to 16 cores busy.
     */
    public static final int MAX_STRIPES = 16;
    /** Fewest samples per stripe worth a split (a split keys a new ChaCha20 stream). */
    static final int MIN_STRIPE = 4096;

    private GridNoise() {}

    /**
     * Discrete Gaussian on a grid.
     *
     * @param granularity g, a power of two
     * @param sigmaSquaredNum σ_grid² numerator (σ in grid units, squared)
     * @param sigmaSquaredDen σ_grid² denominator (a power of two)
     * @param sigma the standard deviation actually used, g·σ_grid ≥ the requested σ
     * @param loss the Gaussian loss to charge: inflated sensitivity, actual σ
     */
    public record GaussianPlan(double granularity, long sigmaSquaredNum, long sigmaSquaredDen, double sigma,
            GaussianLoss loss) {}

    /**
     * Discrete Laplace on a grid with P[Z = z] ∝ exp(−|z|/scaleSteps).
     *
     * @param granularity g, a power of two
     * @param scaleSteps the Laplace scale in grid steps (an integer)
     * @param epsilon the ε actually achieved, ≤ the requested ε
     */
    public record LaplacePlan(double granularity, long scaleSteps, double epsilon) {}

    /**
     * Plans Gaussian noise of standard deviation at least σ for a p-dimensional query of L2
     * sensitivity Δ.
     */
    public static GaussianPlan gaussian(double l2Sensitivity, double sigma, long dimension) {
        requirePositive("l2Sensitivity", l2Sensitivity);
        requirePositive("sigma", sigma);
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1");
        }
        double rootP = Math.sqrt((double) dimension);
        double ideal = Math.min(sigma, l2Sensitivity / rootP) * 0x1p-12;
        if (!(ideal >= Double.MIN_NORMAL)) {
            // The grid would be subnormal (or 0): powerOfTwoAtMost would clamp it to MIN_NORMAL, far above
            // Δ/√p, and the rounding alone would move a coordinate by a whole step of noise σ_grid ≈ 1 — a
            // loss many times the one σ was calibrated for, which an (ε, δ) charge (the calibration target)
            // would understate. Only a tiny public bound gets here (a row bound B with B² near 1e-308, a
            // clip C likewise): refuse before any charge (docs/mechanisms/noise.md, "Grid").
            throw PrivacyFloors.scaleTooSmall("Gaussian noise of standard deviation " + sigma + " for sensitivity "
                    + l2Sensitivity + " in " + dimension + " dimensions");
        }
        double g = powerOfTwoAtMost(ideal);
        double sigmaGrid = sigma / g;
        if (sigmaGrid < 0x1p31) {
            // σ_grid ≥ 2^12: rounding it up to an integer adds at most 2^-12 relative noise and keeps
            // σ² an integer, which the samplers handle on their 64/128-bit fast paths.
            long s = (long) Math.ceil(sigmaGrid);
            double sigmaUsed = s * g;
            double inflated = Math.nextUp(l2Sensitivity + Math.nextUp(g * rootP));
            return new GaussianPlan(g, s * s, 1, sigmaUsed, new GaussianLoss(inflated, sigmaUsed));
        }
        // σ_grid ≥ 2^31 means σ² in grid steps is at least 2^62, past what the exact sampler's 64-bit
        // numerator holds (the earlier mantissa·2^k encoding overflowed, or for k ≥ 32 wrapped its
        // shift and sampled far less noise than it charged). It happens only for losses far below any
        // useful one (σ·√p/Δ ≥ 2^18): refuse, as io.privmat.privacy.PrivacyFloors documents.
        throw PrivacyFloors.noiseTooLarge("sigma", "σ·√p/Δ < 2^18",
                "Gaussian noise of standard deviation " + sigma + " for sensitivity " + l2Sensitivity + " in "
                        + dimension + " dimensions");
    }

    /** Plans Laplace noise achieving at most ε for a p-dimensional query of L1 sensitivity Δ₁. */
    public static LaplacePlan laplace(double l1Sensitivity, double epsilon, long dimension) {
        requirePositive("l1Sensitivity", l1Sensitivity);
        PrivacyFloors.epsilon("epsilon", epsilon);
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1");
        }
        double scale = l1Sensitivity / epsilon;
        double ideal = Math.min(scale, l1Sensitivity / dimension) * 0x1p-12;
        if (!(ideal > 0)) {
            // Underflowed (a sensitivity near MIN_VALUE from a tiny public bound). A grid clamped to
            // MIN_NORMAL is still charged correctly here (the achieved ε counts the inflation), but 0
            // has no grid: refuse before any charge instead of an IllegalArgumentException (a 500).
            throw PrivacyFloors.scaleTooSmall("Laplace noise for sensitivity " + l1Sensitivity + " in " + dimension
                    + " dimensions");
        }
        double g = powerOfTwoAtMost(ideal);
        double inflatedSteps = Math.nextUp((l1Sensitivity + g * dimension) / g);
        double steps = Math.ceil(Math.nextUp(inflatedSteps / epsilon));
        if (!(steps <= MAX_LAPLACE_STEPS)) {
            // A long would saturate (and the charge fall below the loss); refuse instead.
            throw PrivacyFloors.noiseTooLarge("epsilon", "ε ≥ " + inflatedSteps + "·2^-53",
                    "a Laplace scale of " + steps + " grid steps (more than 2^53)");
        }
        long t = (long) steps;
        double achieved = inflatedSteps / t;
        return new LaplacePlan(g, t, Math.nextUp(achieved));
    }

    /** g·(round(f/g) + Z), Z ~ N_ℤ(0, σ_grid²) per coordinate; writes into {@code out}. */
    public static void addGaussian(GaussianPlan plan, double[] f, double[] out, NoiseSource random) {
        double g = plan.granularity();
        DiscreteGaussianSampler sampler = sampler(plan, random);
        for (int i = 0; i < f.length; i++) {
            long z = sampler.next();
            out[i] = (roundToGrid(f[i], g) + z) * g;
        }
    }

    /**
     * As {@link #addGaussian}, with the coordinates split into {@link #stripes} parts run over the
     * cores; each part draws from its own split of {@code random}, split in a fixed order, and the
     * parts depend on {@code length} only — so a seeded or replayed source reproduces the noise
     * whatever the number of CPUs.
     */
    public static void addGaussianParallel(GaussianPlan plan, double[] f, int offset, int length, double[] out,
            NoiseSource random) {
        double g = plan.granularity();
        int parts = stripes(length);
        NoiseSource[] sources = new NoiseSource[parts];
        for (int p = 0; p < parts; p++) {
            sources[p] = random.split();
        }
        java.util.stream.IntStream.range(0, parts).parallel().forEach(p -> {
            int from = (int) ((long) p * length / parts);
            int to = (int) ((long) (p + 1) * length / parts);
            DiscreteGaussianSampler sampler = sampler(plan, sources[p]);
            for (int i = from; i < to; i++) {
                long z = sampler.next();
                out[offset + i] = (roundToGrid(f[offset + i], g) + z) * g;
            }
        });
    }

    /** A sampler of the plan's N_ℤ(0, σ_grid²) drawing from {@code random} (one per thread). */
    public static DiscreteGaussianSampler sampler(GaussianPlan plan, NoiseSource random) {
        return new DiscreteGaussianSampler(random, plan.sigmaSquaredNum(), plan.sigmaSquaredDen());
    }

    /**
     * The number of stripes a bulk fill of {@code length} samples is split into: from the length
     * alone, 1 up to {@link #MAX_STRIPES}, at least {@link #MIN_STRIPE} samples each where possible.
     */
    public static int stripes(long length) {
        return (int) Math.max(1, Math.min(MAX_STRIPES, length / MIN_STRIPE));
    }

    /** g·(round(f/g) + Z), Z discrete Laplace per coordinate; writes into {@code out}. */
    public static void addLaplace(LaplacePlan plan, double[] f, double[] out, NoiseSource random) {
        double g = plan.granularity();
        for (int i = 0; i < f.length; i++) {
            long z = ExactSamplers.discreteLaplace(random, 1, plan.scaleSteps());
            out[i] = (roundToGrid(f[i], g) + z) * g;
        }
    }

    /**
     * Symmetric noise {@code (G + Gᵀ)/2} on a symmetric d×d matrix (row-major): round C to the grid,
     * add G with i.i.d. discrete Gaussian entries and symmetrise. It is post-processing of the d²
     * Gaussian mechanism on vec(C), so plan it with dimension d² and the Frobenius sensitivity.
     * Outputs are multiples of g/2.
     */
    public static double[] symmetricGaussian(GaussianPlan plan, double[] matrix, int d, NoiseSource random) {
        requireSquare(matrix, d);
        double g = plan.granularity();
        long[] noise = new long[d * d];
        // d² exact samples: split the rows into stripes, each with its own split source; the stripes
        // depend on d only (see MAX_STRIPES), so a seeded source gives the same noise on any machine.
        int parts = Math.max(1, Math.min(d, stripes((long) d * d)));
        NoiseSource[] sources = new NoiseSource[parts];
        for (int p = 0; p < parts; p++) {
            sources[p] = random.split();
        }
        java.util.stream.IntStream.range(0, parts).parallel().forEach(p -> {
            int from = (int) ((long) p * d / parts) * d;
            int to = (int) ((long) (p + 1) * d / parts) * d;
            sampler(plan, sources[p]).fill(noise, from, to);
        });
        double[] out = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                // Round the upper triangle once and mirror it, so the output is exactly symmetric.
                double base = roundToGrid(matrix[i * d + j], g);
                double value = (base + (noise[i * d + j] + noise[j * d + i]) / 2.0) * g;
                out[i * d + j] = value;
                out[j * d + i] = value;
            }
        }
        return out;
    }

    /**
     * Upper-triangle noise, mirrored (Dwork–Talwar–Thakurta–Zhang): i.i.d. discrete Gaussian on the
     * d(d+1)/2 entries with i ≤ j. Plan it with dimension d(d+1)/2 and the upper-triangle L2
     * sensitivity. Outputs are multiples of g.
     */
    public static double[] upperTriangleGaussian(GaussianPlan plan, double[] matrix, int d, NoiseSource random) {
        requireSquare(matrix, d);
        double g = plan.granularity();
        double[] out = new double[d * d];
        long[] noise = new long[(int) ((long) d * (d + 1) / 2)];
        ExactSamplers.fillDiscreteGaussian(random, plan.sigmaSquaredNum(), plan.sigmaSquaredDen(), noise);
        int next = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                long z = noise[next++];
                double value = (roundToGrid(matrix[i * d + j], g) + z) * g;
                out[i * d + j] = value;
                out[j * d + i] = value;
            }
        }
        return out;
    }

    /**
     * round(x/g) as a double holding an integer, saturated at ±{@link #LIMIT_STEPS}; g a power of
     * two, so x/g is exact.
     *
     * <p>This runs on data-dependent statistics after data access, so it must be total: it never
     * throws (docs/adr/0011-a-failure-is-an-output.md). Saturation is a coordinatewise clamp, which is
     * 1-Lipschitz: neighbours' rounded vectors still differ by at most Δ + g·√p (L2) or Δ₁ + g·p (L1),
     * the sensitivities every plan charges, so the charges are unchanged. It only biases a coordinate
     * whose true value exceeds 2⁵⁰ grid steps — at least 2⁵⁰·2⁻¹²·(Δ/√p) — which the plans state
     * (docs/mechanisms/noise.md, "Saturation"). A NaN (an overflowed statistic; a per-person step
     * that could produce one replaces it before the sum over everyone, so no single person's data
     * decides it: ADR 0011) is released as 0 grid steps plus noise. Adding the integer noise Z to the saturated steps is one correctly
     * rounded double addition of two integer-valued doubles: exact while |steps + Z| &lt; 2⁵³ (always for
     * Gaussian plans, σ_grid &lt; 2³¹), and otherwise a function of the exact integer sum alone (a Laplace
     * scale may reach 2⁵³ steps), so it is post-processing either way.
     */
    public static double roundToGrid(double x, double g) {
        double steps = Math.rint(x / g);
        if (steps > LIMIT_STEPS) {
            return LIMIT_STEPS;
        }
        if (steps < -LIMIT_STEPS) {
            return -LIMIT_STEPS;
        }
        return steps == steps ? steps : 0;
    }

    /** The largest |round(f/g)| a release carries: 2⁵⁰ grid steps (see {@link #roundToGrid}). */
    public static final double LIMIT_STEPS = 0x1p50;


    static double powerOfTwoAtMost(double x) {
        if (!(x > 0) || !Double.isFinite(x)) {
            throw new IllegalArgumentException("need a positive finite value");
        }
        double p = Math.scalb(1.0, Math.getExponent(x));
        return Math.max(p, Double.MIN_NORMAL);
    }

    private static void requirePositive(String name, double v) {
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + " must be positive and finite but was " + v);
        }
    }

    private static void requireSquare(double[] matrix, int d) {
        if (d < 1 || matrix.length != d * d) {
            throw new IllegalArgumentException("need a d×d matrix");
        }
    }
}
