package io.privmat.mechanism.window;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.privacy.GaussianLoss;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

/**
 * The matrix-factorisation mechanism for windowed sums: factor the window workload A = B·C with C
 * banded lower-triangular Toeplitz (the first p coefficients of √a(x), {@link BandedToeplitz}),
 * release y = C·x + z with fresh noise z per block, and answer B·y = A·x + A·C⁻¹z. Streaming: at
 * block t, yₜ = Σₖ₍ₚ cₖ·xₜ₋ₖ + zₜ; the decoded blocks x̂ = C⁻¹y follow the recurrence
 * x̂ₜ = yₜ − Σ₁≤ₖ₍ₚ cₖ·x̂ₜ₋ₖ (c₀ = 1), and the window is Σ of the last w decoded blocks.
 * (Henzinger, Upadhyay, Upadhyay, "Almost tight error bounds on differentially private continual
 * counting", SODA 2023, and Fichtenberger, Henzinger, Upadhyay, ICML 2023, for the square-root
 * Toeplitz factorisation; Denisov, McMahan, Rush, Smith, Thakurta, NeurIPS 2022; Choquette-Choo et
 * al., NeurIPS 2023, and Kalinin and Lampert, NeurIPS 2024, for banded factorisations.)
 *
 * <p><b>Privacy.</b> y = Cx + z is the Gaussian mechanism on the linear map x ↦ Cx. A row in
 * block s changes xₛ by at most Δ_F in Frobenius norm and hence yₛ₊ₖ by |cₖ|·Δ_F for k &lt; p
 * (nothing else: C is banded): L2 sensitivity Δ_F·‖c‖₂ over the whole stream, any length. A
 * replacement that moves a row to another block (a TIME stream under REPLACE_ONE) is covered only
 * while every cₖ ≥ 0, i.e. p ≤ w, which {@link #maxBands} enforces there. On the
 * grid each yₜ is rounded, adding at most g·d per release: Δ′ ≤ Δ_F·‖c‖ + g·d·√p, and the grid is
 * chosen so that g·d·√p ≤ 2⁻¹²·Δ_F·‖c‖. Each yₜ is a Gaussian mechanism given the past, so the
 * stream is ρ = Δ′²/(2σ²) (adaptive streams included; Denisov et al. 2022, Theorem 2.1, for
 * lower-triangular C). Decoding and window sums are post-processing of the released y.
 *
 * <p><b>Error:</b> τ² = σ²·Σₖ≤t gₖ², gₖ the coefficients of a(x)/c(x), with σ ∝ ‖c‖; at p = w the
 * product ‖c‖²·Σgₖ² is 4.1 (w = 10) and 9.4 (w = 100) against w for disjoint blocks and, for the
 * dyadic tree, about 10 and 29 on average over window positions, 16 and 41 at its worst position
 * (docs/accuracy/windows.md).
 * <b>State:</b> the last p − 1 exact blocks (secret) and the last max(w, p) − 1 decoded blocks
 * (public).
 */
public final class FactorizationWindowMechanism extends WindowMechanism {

    private final BandedToeplitz strategy;

    private FactorizationWindowMechanism(WindowParameters parameters, BandedToeplitz strategy,
            GridNoise.GaussianPlan plan, GaussianLoss loss) {
        super(parameters, plan, loss);
        this.strategy = strategy;
    }

    /** min(w, 4096). */
    public static int defaultBands(int windowBlocks) {
        return Math.min(windowBlocks, BandedToeplitz.MAX_BANDS);
    }

    /**
     * The most bands p these parameters allow: min(4w, 4096), but min(w, 4096) on a TIME stream
     * under REPLACE_ONE. There a replaced row may carry another event time, so a neighbour may move
     * a row from block s to block s + l: the releases then move by (c_{t−s} − c_{t−s−l})·aaᵀ, of
     * squared norm 2‖c‖²B⁴ − 2R(l)B⁴ with R the autocorrelation of c. For p ≤ w every cₖ is positive,
     * R ≥ 0 and the charged Δ_F·‖c‖ covers it; for p &gt; w some R(l) &lt; 0 (up to 1.118× the charged
     * sensitivity at w = 100), and charging that worst case would leave more error than p = w
     * (docs/mechanisms/windows.md, "Neighbours on TIME streams").
     */
    public static int maxBands(WindowParameters parameters) {
        long w = parameters.windowBlocks();
        boolean movable = parameters.blockRule() == BlockRule.TIME
                && parameters.relation() == NeighbouringRelation.REPLACE_ONE;
        return (int) Math.min(movable ? w : 4 * w, BandedToeplitz.MAX_BANDS);
    }

    static FactorizationWindowMechanism create(WindowParameters parameters, int requestedBands,
            DoubleUnaryOperator sigmaForTotal) {
        int w = parameters.windowBlocks();
        int max = maxBands(parameters);
        int bands = requestedBands == 0 ? defaultBands(w) : requestedBands;
        if (bands < 1 || bands > max) {
            boolean movable = max < Math.min(4L * w, BandedToeplitz.MAX_BANDS);
            throw new IllegalArgumentException("bands must be in [1, " + max + "] for w = " + w
                    + (movable ? " on a TIME stream under REPLACE_ONE (a replaced row may carry another event time, "
                            + "i.e. move to another block; with more bands than w some coefficients are negative and "
                            + "such a move would change the releases by more than the charged sensitivity)" : "")
                    + " but was " + bands);
        }
        BandedToeplitz strategy = new BandedToeplitz(w, bands);
        double delta = parameters.blockSensitivity();
        double norm = up(Math.sqrt(strategy.normSquared));
        double total = up(delta * norm);
        double sigma = sigmaForTotal.applyAsDouble(total);
        long p2 = (long) parameters.d() * parameters.d();
        // Plan with Δ‖c‖/√p so that the grid satisfies g·d·√p ≤ 2⁻¹²·Δ‖c‖ (GridNoise picks
        // g ≤ (sensitivity/√dimension)·2⁻¹²); the charged sensitivity is then computed here.
        GridNoise.GaussianPlan plan = GridNoise.gaussian(total / Math.sqrt(bands), sigma, p2);
        double inflated = up(total + plan.granularity() * parameters.d() * Math.sqrt(bands));
        return new FactorizationWindowMechanism(parameters, strategy, plan, new GaussianLoss(inflated, plan.sigma()));
    }

    @Override
    public WindowMechanismKind kind() {
        return WindowMechanismKind.FACTORIZATION;
    }

    /** p, the bands of C. */
    public int bands() {
        return strategy.bands();
    }

    /** The Toeplitz coefficients c₀..c_{p−1} of C (a copy). */
    public double[] coefficients() {
        return strategy.c.clone();
    }

    @Override
    public int releasesPerRow() {
        return strategy.bands();
    }

    @Override
    public double streamSensitivity() {
        return up(parameters.blockSensitivity() * up(Math.sqrt(strategy.normSquared)));
    }

    @Override
    public int maxStateMatrices() {
        int p = strategy.bands();
        return (p - 1) + (Math.max(parameters.windowBlocks(), p) - 1) + 1;
    }

    @Override
    public double noiseVariance(long block) {
        return strategy.errorSquares(block) * plan.sigma() * plan.sigma();
    }

    @Override
    public double roundingBound(long block) {
        return strategy.errorAbs(block) * plan.granularity() / 2;
    }

    @Override
    Step step(WindowState state, byte[] streamKey) {
        long t = state.completedBlocks();
        int p = strategy.bands();
        int w = parameters.windowBlocks();
        double[] c = strategy.c;
        double[] block = state.openBlock().clone();
        SortedMap<Long, double[]> secret = new TreeMap<>(state.secret());
        SortedMap<Long, double[]> published = new TreeMap<>(state.published());

        // (Cx)_t = Σ_{k<p} c_k x_{t−k} from the exact blocks.
        double[] strategyRow = block.clone();
        for (int k = 1; k < p && k <= t; k++) {
            Packed.addScaled(strategyRow, BlockWindowMechanism.required(secret, t - k), c[k]);
        }
        double[] y = noisy(strategyRow, streamKey, t);
        // x̂_t = y_t − Σ_{1≤k<p} c_k x̂_{t−k}.
        double[] decoded = y;
        for (int k = 1; k < p && k <= t; k++) {
            Packed.addScaled(decoded, BlockWindowMechanism.required(published, t - k), -c[k]);
        }
        published.put(t, decoded);
        if (p > 1) {
            secret.put(t, block);
        }
        double[] window = new double[parameters.packedSize()];
        for (long s = Math.max(0, t - w + 1); s <= t; s++) {
            Packed.add(window, BlockWindowMechanism.required(published, s));
        }
        // Block t+1 needs exact x_{t−p+2..t} and decoded x̂_{t+2−max(w,p)..t}.
        secret.headMap(t - p + 2).clear();
        published.headMap(t + 2 - Math.max(w, p)).clear();
        WindowState next = new WindowState(kind(), d, t + 1, 0, new double[parameters.packedSize()], secret, published);
        return new Step(windowRelease(t, window), next);
    }
}
