package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.WindowParameters;
import java.util.function.DoubleUnaryOperator;

/**
 * The continual-release mechanisms for windowed block sums (docs/mechanisms/windows.md). Each
 * value builds its own {@link WindowMechanism}, so shared code calls the value and names none.
 */
public enum WindowMechanismKind {
    /** Each completed block released once with fresh Gaussian noise; a window sums w releases. */
    BLOCKS((parameters, options, sigma) -> BlockWindowMechanism.create(parameters, sigma)),
    /** Dyadic nodes of 1, 2, 4, … blocks, each released once; a window sums its dyadic cover. */
    DYADIC_TREE((parameters, options, sigma) -> DyadicTreeWindowMechanism.create(parameters, options.treeLevels(),
            sigma)),
    /** Banded lower-triangular Toeplitz factorisation of the window workload (correlated noise). */
    FACTORIZATION((parameters, options, sigma) -> FactorizationWindowMechanism.create(parameters, options.bands(),
            sigma));

    /** Builds a mechanism from public values: σ from the total sensitivity it is given. */
    @FunctionalInterface
    private interface Factory {
        WindowMechanism create(WindowParameters parameters, WindowMechanism.Options options,
                DoubleUnaryOperator sigmaForTotalSensitivity);
    }

    private final Factory factory;

    WindowMechanismKind(Factory factory) {
        this.factory = factory;
    }

    /** This mechanism calibrated by {@code sigmaForTotalSensitivity} (public values only). */
    WindowMechanism create(WindowParameters parameters, WindowMechanism.Options options,
            DoubleUnaryOperator sigmaForTotalSensitivity) {
        return factory.create(parameters, options, sigmaForTotalSensitivity);
    }
}
