package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import java.util.List;

/**
 * DYADIC_TREE ({@link DyadicTreeWindowMechanism}): nodes of 1, 2, …, 2^(H−1) blocks, each released
 * once with fresh noise, node estimates combined bottom-up by inverse variance, a window summed from
 * its dyadic cover. A row is in one node per level: sensitivity Δ_F·√H for the whole stream.
 */
public final class WindowDyadicTree extends WindowDefinition {

    public WindowDyadicTree() {
        super("DYADIC_TREE", WindowMechanismKind.DYADIC_TREE, "Sliding-window continual release over a dyadic tree "
                + "of blocks: each node released once with fresh noise, a window summed from at most 2H nodes; "
                + "charged once for the whole stream.", List.of(Param.integer("treeLevels", 1, 63, null,
                        "H, the node levels (sizes 1, 2, …, 2^(H−1) blocks), at most ⌊log₂ w⌋ + 1; default "
                                + "⌊log₂ w⌋ + 1")));
    }

    @Override
    WindowMechanism.Options options(Params params) {
        Integer levels = params.optionalInteger("treeLevels");
        return new WindowMechanism.Options(levels == null ? 0 : levels, 0);
    }

    @Override
    String scaling() {
        return " (one node per level, each moved by the block's change)";
    }

    @Override
    double[] blockWeights(WindowMechanism m) {
        double[] w = new double[m.releasesPerRow()];
        java.util.Arrays.fill(w, 1);
        return w;
    }

    @Override
    void describe(Facts.Builder noise, WindowMechanism m) {
        noise.put(NoiseFacts.TREE_LEVELS, ((DyadicTreeWindowMechanism) m).levels());
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.TREE_LEVELS.note("DYADIC_TREE: the node levels H (nodes of 1, 2, …, 2^(H−1) blocks)"));
    }
}
