package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import java.util.List;

/**
 * FACTORIZATION ({@link FactorizationWindowMechanism}): the window workload factored as A = B·C with
 * C banded lower-triangular Toeplitz (the square root of the window's generating function), y = Cx
 * + z released with fresh noise per block, windows decoded as B·y. A row's block enters p releases
 * scaled by c₀…c_{p−1}: sensitivity Δ_F·‖c‖₂ for the whole stream.
 */
public final class WindowFactorization extends WindowDefinition {

    public WindowFactorization() {
        super("FACTORIZATION", WindowMechanismKind.FACTORIZATION, "Sliding-window continual release by a banded "
                + "square-root Toeplitz factorisation of the window workload (correlated noise, lower error than "
                + "blocks or the tree at the same budget); charged once for the whole stream.", List.of(
                        Param.integer("bands", 1, 4096, null, "p, the bands of the Toeplitz strategy C, at most "
                                + "min(4w, 4096), or min(w, 4096) on a TIME stream under REPLACE_ONE (a replaced row may "
                                + "move to another block); default min(w, 4096)")));
    }

    @Override
    WindowMechanism.Options options(Params params) {
        Integer bands = params.optionalInteger("bands");
        return new WindowMechanism.Options(0, bands == null ? 0 : bands);
    }

    @Override
    String scaling() {
        return " (scaled by the Toeplitz coefficients c₀…c_{p−1}, ‖c‖₂ in all)";
    }

    @Override
    double[] blockWeights(WindowMechanism m) {
        return ((FactorizationWindowMechanism) m).coefficients();
    }

    @Override
    void describe(Facts.Builder noise, WindowMechanism m) {
        noise.put(NoiseFacts.BANDS, ((FactorizationWindowMechanism) m).bands());
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.BANDS.note("FACTORIZATION: the bands p of the Toeplitz strategy C"));
    }
}
