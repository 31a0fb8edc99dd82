package io.privmat.mechanism.completion;

import static io.privmat.mechanism.catalog.SignalToNoise.BUDGET_ADVICE;
import static io.privmat.mechanism.catalog.SignalToNoise.fmt;
import static io.privmat.mechanism.catalog.SignalToNoise.spectrum;
import static io.privmat.mechanism.catalog.SignalToNoise.statement;

import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.SignalToNoise;
import java.util.Arrays;
import java.util.List;

/**
 * The completion family's own noise warnings, added to the rules every family shares
 * ({@link SignalToNoise}; docs/accuracy/warnings.md).
 */
final class CompletionWarnings {

    private CompletionWarnings() {}

    /**
     * A completion model's released spectrum against its noise bound: Frank–Wolfe's λ̂_t² against the
     * bound on every Ŵ_t's noise (a step whose λ̂_t² is within it moved the model along a noise
     * direction); private SVD's eigenvalues against its Gram's noise bound. ALS releases no spectrum.
     */
    static List<NoiseWarning> of(CompletionRelease c, ResultAccuracy accuracy) {
        if (c.model() instanceof FrankWolfeRelease f
                && f.parameters().schedule() == FrankWolfeParameters.StepSchedule.FULLY_CORRECTIVE) {
            return fullyCorrective(f);
        }
        if (c.model() instanceof FrankWolfeRelease f) {
            ErrorStatement b = statement(accuracy, "spectrum");
            if (b == null) {
                return List.of();
            }
            double[] squared = Arrays.stream(f.lambdaHat()).map(x -> x * x).toArray();
            return spectrum("spectrum", squared, b.value(), b.level()).stream().map(w -> relabel(w,
                    "the Frank–Wolfe steps' λ̂_t² (" + w.entries() + " steps)")).toList();
        }
        if (c.model() instanceof SvdCompletionRelease s) {
            ErrorStatement b = statement(accuracy, "eigenvalues");
            return b == null ? List.of() : spectrum("eigenvalues", s.eigenvalues(), b.value(), b.level());
        }
        return List.of();
    }

    /**
     * Fully corrective Frank–Wolfe decided per step, in the release itself, whether its direction
     * stands clear of the noise (λ̂_t² above the release's public bound b_t; otherwise the direction
     * is released as zero and nobody fits it): the warning counts the directions released, so it
     * agrees with what the users' predictions use. None: every prediction is the scale's midpoint.
     */
    private static List<NoiseWarning> fullyCorrective(FrankWolfeRelease f) {
        int t = f.parameters().iterations();
        int used = 0;
        for (int k = 1; k <= t; k++) {
            used += Arrays.stream(f.direction(k)).anyMatch(x -> x != 0) ? 1 : 0;
        }
        if (used == t) {
            return List.of();
        }
        Double bound = f.facts().find(CompletionFacts.NOISE_SPECTRAL_BOUND);
        double noise = bound == null ? 0 : bound;
        double level = 1 - f.parameters().beta();
        double top = Arrays.stream(f.lambdaHat()).map(x -> x * x).max().orElse(0);
        if (used == 0) {
            return List.of(new NoiseWarning(NoiseWarning.Code.NOISE_DOMINATED, "spectrum", noise, level, top, 0, t,
                    "Every one of the " + t + " Frank–Wolfe steps' λ̂_t² (largest " + fmt(top) + ") is within its "
                    + "release's noise bound (" + fmt(noise) + "): no direction was released (all are zero), so "
                    + "every prediction is the midpoint of the rating scale, whatever the ratings." + BUDGET_ADVICE));
        }
        return List.of(new NoiseWarning(NoiseWarning.Code.COMPONENTS_IN_NOISE, "spectrum", noise, level, top, used, t,
                used + " of the " + t + " Frank–Wolfe steps released a direction (λ̂_t² above its release's noise "
                + "bound " + fmt(noise) + "); the other steps' directions were released as zero: noise-dominated, or no "
                + "new direction was left (fewer iterations, " + used + ", would spend the budget better)."));
    }

    private static NoiseWarning relabel(NoiseWarning w, String what) {
        String detail = w.code() == NoiseWarning.Code.NOISE_DOMINATED
                ? "Every one of " + what + " is within the noise's bound " + fmt(w.noiseLevel()) + ": each step followed "
                + "a noise direction, so the predictions stay near the baseline (the scale's midpoint) whatever the "
                + "ratings." + BUDGET_ADVICE
                : w.resolved() + " of " + what + " exceed the noise's bound " + fmt(w.noiseLevel()) + "; the other "
                + "steps moved the model along noise directions (fewer iterations spend the budget better).";
        return new NoiseWarning(w.code(), w.quantity(), w.noiseLevel(), w.level(), w.comparedWith(), w.resolved(),
                w.entries(), detail);
    }

}
