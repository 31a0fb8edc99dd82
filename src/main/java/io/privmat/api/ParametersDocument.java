package io.privmat.api;

import io.privmat.mechanism.catalog.RequestParams;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The contract of the plan stored with a job, its ledger entries and its release (JSON text, served
 * as an object): the canonical, versioned mechanism spec the worker rebuilds before reading any row
 * (docs/adr/0005-mechanism-catalogue.md). Only the schema of that document; the query layer writes it.
 */
@Schema(name = "PlannedParameters", description = "The stored plan: kind, mechanism, the budget it was calibrated "
        + "to (rho, or epsilon with delta, or epsilon), its parameters with defaults filled in, and the dataset's "
        + "public facts it was planned on")
public record ParametersDocument(
        @Schema(description = "Plan format version", requiredMode = Schema.RequiredMode.REQUIRED) int version,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String kind,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String mechanism,
        @Nullable Double rho,
        @Nullable Double epsilon,
        @Nullable Double delta,
        @Schema(description = "The mechanism's parameters, validated, defaults filled in (typed as PlannedParams)")
        RequestParams params,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Facts facts) {

    /** The public facts a plan may depend on. */
    @Schema(name = "PlannedFacts", description = "The dataset's public facts the plan was made from; rows only "
            + "where the row count is public")
    public record Facts(@Schema(allowableValues = {"MATRIX", "GRAPH"}) String shape, int cols, @Nullable Long rows,
            double rowNormBound, @Schema(allowableValues = {"ADD_REMOVE", "REPLACE_ONE"}) String relation,
            String accounting) {}
}
