package io.privmat.api;

import io.privmat.mechanism.analytics.RegressionResult;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A regression result as the API shows it, shared by REGRESSION jobs (its members in the result
 * document) and the free regression on a release. An interval end that the release does not bound
 * (±∞) is written as null.
 */
@Schema(name = "ReleaseRegression")
public record RegressionDocument(int response, List<Integer> predictors,
        @Schema(description = "The ridge λ used, relative to the data's own XᵀX") double ridge, String ridgeRule,
        @Schema(description = "What the intervals cover") String estimand, double level,
        @Schema(description = "SIMULTANEOUS_BOUND: all coefficients' [lower, upper] hold together with "
                + "probability ≥ level; EXACT_T: each interval has coverage exactly level",
                allowableValues = {"SIMULTANEOUS_BOUND", "EXACT_T"}) String intervals,
        List<Coefficient> coefficients) {

    /** One coefficient. */
    @Schema(name = "RegressionCoefficient")
    public record Coefficient(@Schema(description = "The predictor column") int column, double estimate,
            @Schema(description = "Lower end of the interval the result's `intervals` names; null when the release "
                    + "implies no finite bound") @Nullable Double lower,
            @Schema(description = "Upper end; null when unbounded") @Nullable Double upper,
            @Schema(description = "First-order normal approximation (no guarantee; calibration in "
                    + "docs/accuracy/analytics.md)") double approximateLower,
            double approximateUpper, double approximateStandardError) {}

    public static RegressionDocument of(RegressionResult r) {
        List<Coefficient> coefficients = new ArrayList<>();
        for (int j = 0; j < r.estimate().length; j++) {
            coefficients.add(new Coefficient(r.predictors()[j], r.estimate()[j], finite(r.lower()[j]),
                    finite(r.upper()[j]), r.approximateLower()[j], r.approximateUpper()[j],
                    r.approximateStandardError()[j]));
        }
        return new RegressionDocument(r.response(), Arrays.stream(r.predictors()).boxed().toList(), r.ridge(),
                r.ridgeRule(), r.estimand(), r.level(), r.intervals().name(), coefficients);
    }

    private static @Nullable Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
