package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.privacy.GaussianCalibration;
import io.privmat.privacy.GaussianLoss;

/**
 * A continual-release mechanism for the sums of the last w completed blocks of a stream, each
 * block's statistic being its Gram G = Σ aaᵀ (d×d, symmetric). Calibrated from public parameters
 * only ({@link WindowParameters}, the budget, {@link Options}) before any row is seen; its
 * {@link #privacyLoss()} is the loss of the <em>whole stream</em>, whatever its length, to be
 * charged once when the stream's subscription is created.
 *
 * <p><b>Noise.</b> Every released matrix is M + (Z + Zᵀ)/2 with Z i.i.d. exact discrete Gaussian
 * on a power-of-two grid ({@link GridNoise#symmetricGaussian}): post-processing of the
 * d²-dimensional Gaussian mechanism on vec(M), whose L2 sensitivity is the Frobenius one. The
 * symmetrised noise has half the variance off the diagonal of mirrored upper-triangle noise at the
 * same sensitivity, so its spectral norm is √2 smaller (docs/mechanisms/windows.md).
 *
 * <p><b>Keyed noise.</b> The noise of each released matrix is drawn from
 * {@link NoiseSources#keyed}(streamKey, index) with an index unique to that matrix (the block, or
 * the tree node): a release recomputed after a restart is bit-identical, and no two releases share
 * noise. The caller must never release the same index from different data (the state's counter
 * must be persisted with the release, atomically).
 *
 * <p>The only data-touching method is {@link #release}: it reads the exact open block and the
 * secret slots of a {@link WindowState} and returns the private {@link WindowRelease} and the next
 * state.
 */
public abstract sealed class WindowMechanism
        permits BlockWindowMechanism, DyadicTreeWindowMechanism, FactorizationWindowMechanism {

    /**
     * Structural options, public. 0 means the default.
     *
     * @param treeLevels the dyadic tree's H, the node levels (sizes 1, 2, …, 2^(H−1) blocks), in
     *     [1, ⌊log₂ w⌋ + 1]; default ⌊log₂ w⌋ + 1 (every level a window can use)
     * @param bands the factorisation's p, the bands of the Toeplitz factor C, in [1, min(4w, 4096)]
     *     ([1, min(w, 4096)] on a TIME stream under REPLACE_ONE,
     *     {@link FactorizationWindowMechanism#maxBands}); default min(w, 4096)
     */
    public record Options(int treeLevels, int bands) {
        public static final Options DEFAULT = new Options(0, 0);

        public Options {
            if (treeLevels < 0 || bands < 0) {
                throw new IllegalArgumentException("options must be >= 0 (0 = default)");
            }
        }
    }

    /** One release and the state that follows it. */
    public record Step(WindowRelease release, WindowState next) {}

    final WindowParameters parameters;
    final int d;
    final GridNoise.GaussianPlan plan;
    private final GaussianLoss loss;

    WindowMechanism(WindowParameters parameters, GridNoise.GaussianPlan plan, GaussianLoss loss) {
        this.parameters = parameters;
        this.d = parameters.d();
        this.plan = plan;
        this.loss = loss;
    }

    /** Calibrated so that the whole stream is ρ-zCDP (σ from the rounding-inflated sensitivity). */
    public static WindowMechanism forRho(WindowMechanismKind kind, WindowParameters parameters, double rho,
            Options options) {
        return kind.create(parameters, options,
                total -> GaussianCalibration.sigmaForRho(total * GridNoise.CALIBRATION_MARGIN, rho));
    }

    /** Analytic-Gaussian calibration (Balle–Wang) so that the whole stream is (ε, δ)-DP. */
    public static WindowMechanism forApproxDp(WindowMechanismKind kind, WindowParameters parameters, double epsilon,
            double delta, Options options) {
        return kind.create(parameters, options,
                total -> GaussianCalibration.analyticSigma(epsilon, delta, total * GridNoise.CALIBRATION_MARGIN));
    }

    public abstract WindowMechanismKind kind();

    public WindowParameters parameters() {
        return parameters;
    }

    /**
     * The loss of the whole stream (every release, any number of blocks): a Gaussian loss with the
     * total rounding-inflated sensitivity of all releases one row can touch, and the σ used. Exactly
     * μ-GDP, ρ-zCDP with ρ = Δ²/2σ²; adaptive streams included (each release is a Gaussian
     * mechanism given the past; Gaussian losses compose exactly).
     */
    public GaussianLoss privacyLoss() {
        return loss;
    }

    /** σ of the entries of Z in each released matrix (the noise is (Z + Zᵀ)/2). */
    public double sigma() {
        return plan.sigma();
    }

    /** The grid step g of the released matrices (values are multiples of g/2). */
    public double granularity() {
        return plan.granularity();
    }

    /** How many released matrices one row enters (1, H or p). */
    public abstract int releasesPerRow();

    /**
     * The L2 (Frobenius) sensitivity of everything the stream releases, before grid rounding: how
     * far all the released matrices one row enters move together when that row changes — Δ_F for
     * disjoint blocks, Δ_F·√H for the dyadic tree, Δ_F·‖c‖₂ for the factorisation (Δ_F =
     * {@link WindowParameters#blockSensitivity()}). The charged loss uses it plus the grid's rounding.
     */
    public abstract double streamSensitivity();

    /** The most packed d×d matrices a state holds between releases (open block included). */
    public abstract int maxStateMatrices();

    /** {@link #maxStateMatrices()} in bytes (8 per double, packed upper triangles). */
    public long maxStateBytes() {
        return 8L * maxStateMatrices() * parameters.packedSize();
    }

    /**
     * τ² for the release of block {@code block}: the variance of xᵀEx for a unit x, E the window
     * estimate's noise. A function of public parameters and the block index only.
     */
    public abstract double noiseVariance(long block);

    /** The largest movement of one entry of the window estimate by grid rounding, at {@code block}. */
    public abstract double roundingBound(long block);

    /** The state of a new stream. */
    public WindowState initialState() {
        return WindowState.initial(kind(), d);
    }

    /**
     * Closes the open block of {@code state}: releases what the mechanism releases for it, with
     * noise keyed by {@code streamKey}, and returns the window answer and the next state (counter
     * + 1, empty open block). Deterministic: the same state and key give the same step, bit for bit.
     *
     * @throws HorizonExhaustedException if the horizon's last block was already released
     * @throws IllegalArgumentException if the state belongs to another mechanism or dimension
     */
    public final Step release(WindowState state, byte[] streamKey) {
        if (state.mechanism() != kind() || state.d() != d) {
            throw new IllegalArgumentException("the state belongs to " + state.mechanism() + " with d = " + state.d());
        }
        if (state.completedBlocks() >= parameters.horizonBlocks()) {
            throw new HorizonExhaustedException("the stream's horizon of " + parameters.horizonBlocks()
                    + " blocks is reached");
        }
        if (streamKey.length != NoiseSources.STREAM_KEY_BYTES) {
            throw new IllegalArgumentException("a stream key has " + NoiseSources.STREAM_KEY_BYTES + " bytes");
        }
        return step(state, streamKey);
    }

    /**
     * The first release of a stream whose first block has the exact Gram {@code gram} (row-major
     * d×d, symmetric): what a stream of one block releases. For a catalogue plan's one-shot release
     * and its contract tests; a service drives streams through {@link StreamBlocks}.
     */
    public Step releaseFirstBlock(double[] gram, byte[] streamKey) {
        if (gram.length != d * d) {
            throw new IllegalArgumentException("the Gram must be " + d + "×" + d);
        }
        return release(initialState().withOpenBlock(0, Packed.pack(gram, d)), streamKey);
    }

    abstract Step step(WindowState state, byte[] streamKey);

    /** packed(g·(round(M/g) + (Z + Zᵀ)/2)) for the packed exact M, noise from (key, index). */
    final double[] noisy(double[] packedExact, byte[] key, long index) {
        NoiseSource source = NoiseSources.keyed(key, index);
        return Packed.pack(GridNoise.symmetricGaussian(plan, Packed.unpack(packedExact, d), d, source), d);
    }

    /** The window release built from a packed estimate. */
    final WindowRelease windowRelease(long block, double[] packedWindow) {
        long first = Math.max(0, block - parameters.windowBlocks() + 1);
        long rows = parameters.blockRule() == BlockRule.ROW_COUNT ? (block - first + 1) * parameters.blockRows() : -1;
        return new WindowRelease(kind(), block, first, rows, d, Packed.unpack(packedWindow, d), noiseVariance(block),
                roundingBound(block));
    }

    /** x·(1 + 2⁻⁴⁰): rounds a computed bound up past its few-ulp floating-point error. */
    static double up(double x) {
        return Math.nextUp(x * (1 + 0x1p-40));
    }
}
