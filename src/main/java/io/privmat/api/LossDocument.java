package io.privmat.api;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The contract of the loss document stored with a job, its ledger entries and its release (JSON
 * text, served as an object): the mechanism's privacy loss as run, and the loss charged to the
 * budget's tracks. Only the schema of that document; it is written by the query layer.
 */
@Schema(name = "Loss", description = "The privacy loss of the mechanism as run, and as charged to the budget; "
        + "its amounts are doubles, exact decimal losses rounded up")
public record LossDocument(
        @Schema(description = "The mechanism's own privacy loss", requiredMode = Schema.RequiredMode.REQUIRED)
        PrivacyLossView mechanism,
        @Schema(description = "What the budget was charged: the mechanism's loss in a notion the dataset's "
                + "accounting mode can compose", requiredMode = Schema.RequiredMode.REQUIRED)
        PrivacyLossView charged) {

    /** One privacy loss: its notion and the parameters that notion has. */
    @Schema(name = "PrivacyLoss", description = "A privacy loss. pure-DP and bounded-range: epsilon; approx-DP: "
            + "epsilon and delta; zCDP: rho; approx-zCDP: rho and delta; Gaussian: l2Sensitivity, sigma, rho and mu "
            + "(Gaussian differential privacy); Gaussian-composition: rho, mu = sqrt(2 rho) and parts (several "
            + "Gaussian releases composed, exactly mu-GDP)")
    public record PrivacyLossView(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = {"pure-DP", "approx-DP", "zCDP",
                "approx-zCDP", "bounded-range", "Gaussian", "Gaussian-composition"}) String notion,
            @Nullable Double epsilon,
            @Nullable Double delta,
            @Nullable Double rho,
            @Schema(description = "Gaussian: the L2 sensitivity the loss is computed from: the statistic's own "
                    + "(the quote's noise.l2Sensitivity) plus what rounding the released values to the noise grid "
                    + "can add, g·sqrt(p), so slightly above it (docs/mechanisms/noise.md)") @Nullable Double l2Sensitivity,
            @Schema(description = "Gaussian: standard deviation of the noise") @Nullable Double sigma,
            @Schema(description = "Gaussian: mu of mu-GDP (l2Sensitivity / sigma); Gaussian-composition: "
                    + "sqrt(2 rho)") @Nullable Double mu,
            @Schema(description = "Gaussian-composition: the number of Gaussian releases composed")
            @Nullable Integer parts) {}
}
