package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.Params;
import java.util.List;

/**
 * BLOCKS ({@link BlockWindowMechanism}): each completed block's Gram is released once with fresh
 * Gaussian noise and a window sums the last w releases. A row is in one released matrix: sensitivity
 * Δ_F, ρ = Δ′²/2σ² for the whole stream (parallel composition over blocks); window noise τ² = w·σ².
 */
public final class WindowBlocks extends WindowDefinition {

    public WindowBlocks() {
        super("BLOCKS", WindowMechanismKind.BLOCKS, "Sliding-window continual release: each completed block's Gram "
                + "released once with fresh symmetric Gaussian noise, a window sums the last w releases; charged "
                + "once for the whole stream.", List.of());
    }

    @Override
    WindowMechanism.Options options(Params params) {
        return WindowMechanism.Options.DEFAULT;
    }

    @Override
    String scaling() {
        return " (its own block's release)";
    }

    @Override
    double[] blockWeights(WindowMechanism m) {
        return new double[] {1};
    }
}
