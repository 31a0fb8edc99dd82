package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.privacy.GaussianLoss;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

/**
 * A dyadic tree over blocks, levels 0..H−1: node (h, i) sums blocks [i·2ʰ, (i+1)·2ʰ − 1] and is
 * released once, with fresh noise, when its last block completes. A window is answered from its
 * canonical cover by complete nodes (at most 2H of them).
 *
 * <p><b>Privacy.</b> A row lies in exactly one node per level, so it changes H released matrices,
 * each by at most Δ_F (Δ′ = Δ_F + g·d after rounding); with independent noise σ per node the stream
 * is one Gaussian mechanism of sensitivity Δ′·√H: ρ = H·Δ′²/(2σ²), so σ is scaled by √H. Everything
 * else is post-processing.
 *
 * <p><b>Least-noise combination.</b> Each node's estimate combines its own release with the sum of
 * its children's estimates by inverse-variance weights (the bottom-up pass of Honaker, "Efficient
 * use of differentially private binary trees", 2015): the best linear unbiased estimate of the node
 * from its subtree, variance vₕσ² with v₀ = 1, vₕ = 2vₕ₋₁/(2vₕ₋₁ + 1) (→ ½). The window is the sum of
 * the estimates of its canonical cover — the fewest and largest disjoint complete nodes, which
 * also has the least variance among covers by disjoint nodes since vₕ decreases with h.
 * <b>Error:</b> τ² = σ²·Σ_cover v_h. <b>State:</b> the estimates of complete nodes that a later
 * window or a parent still needs (≤ Σₕ (⌈(w − 1)/2ʰ⌉ + 1), about 2w), and per level at most one
 * exact sum of a completed left child whose parent is open (secret).
 */
public final class DyadicTreeWindowMechanism extends WindowMechanism {

    private final int levels;
    /** vₕ: a node estimate's variance in units of σ². */
    private final double[] variance;
    /** αₕ: the weight of a node's own release in its estimate. */
    private final double[] ownWeight;
    /** Σ|coefficients| of a level-h estimate on raw releases (for the rounding bound). */
    private final double[] absWeight;

    private DyadicTreeWindowMechanism(WindowParameters parameters, int levels, GridNoise.GaussianPlan plan,
            GaussianLoss loss) {
        super(parameters, plan, loss);
        this.levels = levels;
        this.variance = new double[levels];
        this.ownWeight = new double[levels];
        this.absWeight = new double[levels];
        variance[0] = 1;
        ownWeight[0] = 1;
        absWeight[0] = 1;
        for (int h = 1; h < levels; h++) {
            double children = 2 * variance[h - 1];
            ownWeight[h] = children / (children + 1);
            variance[h] = ownWeight[h];
            absWeight[h] = ownWeight[h] + (1 - ownWeight[h]) * 2 * absWeight[h - 1];
        }
    }

    /** ⌊log₂ w⌋ + 1: every level whose nodes fit in a window. */
    public static int defaultLevels(int windowBlocks) {
        return 64 - Long.numberOfLeadingZeros(windowBlocks);
    }

    static DyadicTreeWindowMechanism create(WindowParameters parameters, int requestedLevels,
            DoubleUnaryOperator sigmaForTotal) {
        int max = defaultLevels(parameters.windowBlocks());
        int levels = requestedLevels == 0 ? max : requestedLevels;
        if (levels < 1 || levels > max) {
            throw new IllegalArgumentException("treeLevels must be in [1, " + max + "] for w = "
                    + parameters.windowBlocks() + " (larger nodes never fit in a window) but was " + levels);
        }
        double delta = parameters.blockSensitivity();
        double rootH = Math.sqrt(levels);
        double sigma = sigmaForTotal.applyAsDouble(up(delta * rootH));
        GridNoise.GaussianPlan plan = GridNoise.gaussian(delta, sigma, (long) parameters.d() * parameters.d());
        // plan.loss() is one node's loss (Δ_F + g·d, σ); a row is in `levels` nodes.
        GaussianLoss loss = new GaussianLoss(up(plan.loss().l2Sensitivity() * rootH), plan.sigma());
        return new DyadicTreeWindowMechanism(parameters, levels, plan, loss);
    }

    @Override
    public WindowMechanismKind kind() {
        return WindowMechanismKind.DYADIC_TREE;
    }

    public int levels() {
        return levels;
    }

    @Override
    public int releasesPerRow() {
        return levels;
    }

    @Override
    public double streamSensitivity() {
        return up(parameters.blockSensitivity() * Math.sqrt(levels));
    }

    @Override
    public int maxStateMatrices() {
        long w = parameters.windowBlocks();
        long published = 0;
        for (int h = 0; h < levels; h++) {
            published += (w - 1 + (1L << h) - 1) / (1L << h) + 1;
        }
        return (int) Math.min(Integer.MAX_VALUE, published + (levels - 1) + 1);
    }

    @Override
    public double noiseVariance(long block) {
        double total = 0;
        for (long[] node : cover(block)) {
            total += variance[(int) node[0]];
        }
        return total * plan.sigma() * plan.sigma();
    }

    @Override
    public double roundingBound(long block) {
        double total = 0;
        for (long[] node : cover(block)) {
            total += absWeight[(int) node[0]];
        }
        return total * plan.granularity() / 2;
    }

    /** The canonical cover of the window ending at {@code block}: {level, index} pairs, left to right. */
    List<long[]> cover(long block) {
        long first = Math.max(0, block - parameters.windowBlocks() + 1);
        List<long[]> nodes = new ArrayList<>();
        long pos = first;
        while (pos <= block) {
            int h = Math.min(levels - 1, pos == 0 ? 63 : Long.numberOfTrailingZeros(pos));
            while (pos + (1L << h) - 1 > block) {
                h--;
            }
            nodes.add(new long[] {h, pos >> h});
            pos += 1L << h;
        }
        return nodes;
    }

    @Override
    Step step(WindowState state, byte[] streamKey) {
        long t = state.completedBlocks();
        SortedMap<Long, double[]> published = new TreeMap<>(state.published());
        SortedMap<Long, double[]> secret = new TreeMap<>(state.secret());

        double[] exact = state.openBlock().clone();
        double[] estimate = noisy(exact, streamKey, WindowState.nodeId(0, t));
        published.put(WindowState.nodeId(0, t), estimate);
        long index = t;
        for (int h = 0; h + 1 < levels; h++) {
            if ((index & 1) == 0) {
                // A left child: keep its exact sum until its sibling completes the parent.
                secret.put(WindowState.nodeId(h, index), exact);
                break;
            }
            long leftId = WindowState.nodeId(h, index - 1);
            double[] leftExact = secret.remove(leftId);
            if (leftExact == null) {
                throw new IllegalStateException("the state lacks the exact sum of node " + leftId);
            }
            double[] parentExact = leftExact.clone();
            Packed.add(parentExact, exact);
            long parent = index >> 1;
            double[] raw = noisy(parentExact, streamKey, WindowState.nodeId(h + 1, parent));
            double a = ownWeight[h + 1];
            double[] parentEstimate = new double[raw.length];
            Packed.addScaled(parentEstimate, raw, a);
            Packed.addScaled(parentEstimate, BlockWindowMechanism.required(published, leftId), 1 - a);
            Packed.addScaled(parentEstimate, estimate, 1 - a);
            published.put(WindowState.nodeId(h + 1, parent), parentEstimate);
            exact = parentExact;
            estimate = parentEstimate;
            index = parent;
        }

        double[] window = new double[parameters.packedSize()];
        for (long[] node : cover(t)) {
            Packed.add(window, BlockWindowMechanism.required(published, WindowState.nodeId((int) node[0], node[1])));
        }
        prune(published, t);
        WindowState next = new WindowState(kind(), d, t + 1, 0, new double[parameters.packedSize()], secret, published);
        return new Step(windowRelease(t, window), next);
    }

    /**
     * Keeps a node's estimate while a future window can use it (its first block ≥ t − w + 2) or its
     * parent is still open (the parent's estimate will need it).
     */
    private void prune(SortedMap<Long, double[]> published, long t) {
        long firstFuture = t - parameters.windowBlocks() + 2;
        Iterator<Map.Entry<Long, double[]>> it = published.entrySet().iterator();
        while (it.hasNext()) {
            long id = it.next().getKey();
            int h = (int) (id & 63);
            long i = id >>> 6;
            long lo = i << h;
            boolean usable = lo >= firstFuture;
            boolean parentOpen = h + 1 < levels && (((i >> 1) + 1) << (h + 1)) - 1 > t;
            if (!usable && !parentOpen) {
                it.remove();
            }
        }
    }
}
