package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.noise.GridNoise;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

/**
 * Disjoint blocks: each completed block's Gram is released once, Ĝₜ = Gₜ + (Z + Zᵀ)/2, and the
 * window estimate is the sum of the last w releases (fewer at the start).
 *
 * <p><b>Privacy.</b> A row lies in exactly one block, so it changes exactly one released matrix, by
 * at most Δ_F in Frobenius norm ({@link WindowParameters#blockSensitivity()}: B² or √2·B²; 2 or 2√2
 * for an edge). The releases of distinct blocks use independent noise (distinct keyed indices), so
 * the stream is one Gaussian mechanism of sensitivity Δ′ = Δ_F + g·d (grid rounding) and noise σ:
 * ρ = Δ′²/(2σ²) for the whole stream, any length (parallel composition). Window sums are
 * post-processing. <b>Error:</b> τ² = min(t + 1, w)·σ² for xᵀEx, ‖E‖₂ ≈ τ√(2d).
 * <b>State:</b> the last w − 1 noisy blocks (public) and the open block.
 */
public final class BlockWindowMechanism extends WindowMechanism {

    private BlockWindowMechanism(WindowParameters parameters, GridNoise.GaussianPlan plan) {
        super(parameters, plan, plan.loss());
    }

    static BlockWindowMechanism create(WindowParameters parameters, DoubleUnaryOperator sigmaForTotal) {
        double delta = parameters.blockSensitivity();
        double sigma = sigmaForTotal.applyAsDouble(delta);
        return new BlockWindowMechanism(parameters,
                GridNoise.gaussian(delta, sigma, (long) parameters.d() * parameters.d()));
    }

    @Override
    public WindowMechanismKind kind() {
        return WindowMechanismKind.BLOCKS;
    }

    @Override
    public int releasesPerRow() {
        return 1;
    }

    @Override
    public double streamSensitivity() {
        return parameters.blockSensitivity();
    }

    @Override
    public int maxStateMatrices() {
        return parameters.windowBlocks();
    }

    @Override
    public double noiseVariance(long block) {
        long blocks = Math.min(block + 1, parameters.windowBlocks());
        return blocks * plan.sigma() * plan.sigma();
    }

    @Override
    public double roundingBound(long block) {
        return Math.min(block + 1, parameters.windowBlocks()) * plan.granularity() / 2;
    }

    @Override
    Step step(WindowState state, byte[] streamKey) {
        long t = state.completedBlocks();
        int w = parameters.windowBlocks();
        double[] released = noisy(state.openBlock(), streamKey, t);
        SortedMap<Long, double[]> published = new TreeMap<>(state.published());
        published.put(t, released);
        long first = Math.max(0, t - w + 1);
        double[] window = new double[parameters.packedSize()];
        for (long s = first; s <= t; s++) {
            Packed.add(window, required(published, s));
        }
        // Future windows start at t − w + 2 or later.
        published.headMap(t - w + 2).clear();
        WindowState next = new WindowState(kind(), d, t + 1, 0, new double[parameters.packedSize()], state.secret(),
                published);
        return new Step(windowRelease(t, window), next);
    }

    static double[] required(SortedMap<Long, double[]> slots, long key) {
        double[] v = slots.get(key);
        if (v == null) {
            throw new IllegalStateException("the state lacks slot " + key + "; it was not produced by this mechanism");
        }
        return v;
    }
}
