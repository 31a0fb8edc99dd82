package io.privmat.api;

import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * The contract of the public parameters stored with a job, its ledger entries and its release (JSON
 * text, served as an object): the query as planned, normalised. Only the schema of that document;
 * it is written by the query layer.
 */
@Schema(name = "PlannedParameters", additionalProperties = Schema.AdditionalPropertiesValue.TRUE,
        description = "The query's public parameters as planned: kind, mechanism, the privacy parameters it runs "
                + "with (rho, or epsilon and delta) and the kind's own parameters (k, center, eta, nu, shrink, …)")
public record ParametersDocument(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String kind,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String mechanism,
        @Nullable BigDecimal rho,
        @Nullable BigDecimal epsilon,
        @Nullable BigDecimal delta) {}
