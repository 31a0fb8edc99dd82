package io.privmat.mechanism.lowrank;

import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.catalog.ResultAccuracy;
import java.util.ArrayList;
import java.util.List;

/**
 * Accuracy of the low-rank mechanisms (docs/accuracy/intervals.md). Their guarantees bound the
 * error beyond what the data's own spectrum forces (σₖ₊₁(A), ‖A − Aₖ‖_F) or relative to the unknown
 * eigengap, so the stated figures are the data-free parts, named as such ({@code excess…},
 * {@code sinThetaTimesGap}); the derivation says what to add or divide by.
 * <ul>
 *   <li>RANDOMIZED_RESPONSE: Â = A + G, G with i.i.d. N(0, σ²) entries, ‖G‖₂ ≤ σ(√m + √d + t) with
 *       probability ≥ 1 − e^{−t²/2} (Gordon + concentration; t = √(2 ln(2/α)) as in its facts);
 *       Weyl gives |ŝᵢ − sᵢ(A)| ≤ ‖G‖₂ and ‖A − Âₖ‖₂ ≤ σₖ₊₁(A) + 2‖G‖₂.</li>
 *   <li>NOISY_POWER: Hardt–Price (2014, Thm 1.1): once L ≥ c·λₖ/(λₖ − λₖ₊₁)·log d, the released
 *       V̂ satisfies ‖(I − V̂V̂ᵀ)Vₖ‖₂ ≤ 5·maxₗ‖Gₗ‖₂/(λₖ − λₖ₊₁), ‖Gₗ‖₂ ≤ σ(√d + √k + t) for every
 *       step at once (union bound over L).</li>
 *   <li>PRIVATE_OJA: no closed-form data-free subspace bound is stated; the norm of every step's
 *       noise vector, σ(√d + t) over all L steps, is, and the docs give the measured subspace error.</li>
 *   <li>HARDT_ROTH: Hardt–Roth (2012, Thm 4.2 and 4.7): E‖A − Âₖ‖_F ≤ c·(‖A − Aₖ‖²_F + (m − k)σ_Y²)^½
 *       + ‖A − Aₖ‖_F + 2√(2k)(σₖ₊₁(A) + ‖N‖₂), c = √(1 + k/(ℓ − k − 1)); the data-free excess stated is
 *       c·√(m − k)·σ_Y + 2√(2k)·‖N‖₂ (when nothing is pruned and ℓ − k ≥ 2).</li>
 * </ul>
 */
public final class LowRankAccuracy {

    private LowRankAccuracy() {}

    public static double gordon(double sigma, double rows, double cols, double level) {
        return sigma * (Math.sqrt(rows) + Math.sqrt(cols) + Math.sqrt(2 * Math.log(2 / Accuracies.alpha(level))));
    }

    /** RANDOMIZED_RESPONSE. */
    public static List<ErrorStatement> randomizedResponse(double sigma, int m, int d, double level) {
        double g = gordon(sigma, m, d, level);
        return List.of(new ErrorStatement("singularValues", "absPerEntry", g, level, ErrorBasis.BOUND,
                        "Weyl: |ŝᵢ − sᵢ(A)| ≤ ‖G‖₂ ≤ σ(√m + √d + t), all i at once"),
                new ErrorStatement("lowRank", "excessSpectralNorm", 2 * g, level, ErrorBasis.BOUND,
                        "‖A − Âₖ‖₂ ≤ σₖ₊₁(A) + 2‖G‖₂"));
    }

    public static ResultAccuracy randomizedResponse(Factorization f, double sigma, double level) {
        List<ErrorStatement> bounds = randomizedResponse(sigma, f.m(), f.d(), level);
        List<IntervalSet> intervals = new ArrayList<>();
        boolean shrunk = f.facts().has(FactorizationFacts.SHRINKAGE);
        if (!shrunk) {
            intervals.add(IntervalSet.nonNegative("singularValues", ErrorBasis.BOUND, level, f.s(),
                    bounds.get(0).value()));
        }
        return new ResultAccuracy(level, intervals, bounds, shrunk ? "singular values were shrunk (post-processing): "
                + "the Weyl interval applies to the unshrunk values, so none is stated for the released ones"
                : "simultaneous over the k singular values; the low-rank error adds σₖ₊₁(A), the best rank-k error");
    }

    /** NOISY_POWER: 5·max‖Gₗ‖₂ (the Hardt–Price numerator). */
    static ErrorStatement noisyPower(double sigma, int d, int k, int iterations, double level) {
        double t = Math.sqrt(2 * Math.log(2.0 * iterations / Accuracies.alpha(level)));
        return new ErrorStatement("components", "sinThetaTimesGap", 5 * sigma * (Math.sqrt(d) + Math.sqrt(k) + t), level,
                ErrorBasis.BOUND, "Hardt–Price: ‖(I − V̂V̂ᵀ)Vₖ‖₂ ≤ value/(λₖ − λₖ₊₁) of XᵀX once L ≥ c·λₖ/(λₖ − λₖ₊₁)·"
                + "log d; divide by the eigengap");
    }

    /** PRIVATE_OJA: every step's noise norm at once. */
    static ErrorStatement oja(double sigma, int d, int iterations, double level) {
        double t = Math.sqrt(2 * Math.log(2.0 * iterations / Accuracies.alpha(level)));
        return new ErrorStatement("stepNoise", "noiseNorm", sigma * (Math.sqrt(d) + t), level, ErrorBasis.BOUND,
                "‖gₗ‖ ≤ σ(√d + t) for all L steps (union bound); the subspace error is measured in "
                + "docs/accuracy/intervals.md, no closed-form bound is stated");
    }

    /** HARDT_ROTH's data-free excess, or null when its theorem does not apply (pruning, ℓ − k &lt; 2). */
    static ErrorStatement hardtRoth(double rangeFinderSigma, double projectionBound, int m, int k, int l) {
        double c = Math.sqrt(1 + (double) k / (l - k - 1));
        return new ErrorStatement("lowRank", "excessFrobeniusNorm", c * Math.sqrt(m - k) * rangeFinderSigma
                + 2 * Math.sqrt(2 * k) * projectionBound, null, ErrorBasis.BOUND, "Hardt–Roth: E‖A − Âₖ‖_F ≤ "
                + "(c + 1)‖A − Aₖ‖_F + 2√(2k)σₖ₊₁(A) + value, c = " + c + "; the projection term at probability 0.95");
    }
}
