package io.privmat.query;

import io.swagger.v3.oas.annotations.media.Schema;
import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Body of {@code POST /v1/datasets/{id}/queries} and {@code …/queries/quote}. */
@Schema(name = "QueryRequest", description = "Give either rho (zCDP) or epsilon (and delta for Gaussian "
        + "mechanisms). The cost is computed from these public parameters before any data is read.")
public record QueryRequest(
        @Schema(description = "Query kind", allowableValues = {"COLUMN_SUMS", "COVARIANCE", "PCA", "SKETCH",
                "LOW_RANK", "TOP_SINGULAR_VECTORS"},
                requiredMode = Schema.RequiredMode.REQUIRED)
        @Nullable String kind,
        @Schema(description = "Mechanism for the kind: COLUMN_SUMS accepts GAUSSIAN or LAPLACE; COVARIANCE and PCA "
                + "accept ANALYZE_GAUSS (rho, or epsilon+delta), WISHART (epsilon+delta) or EIGEN_SAMPLING (epsilon); "
                + "SKETCH accepts JL or WISHART (epsilon+delta); LOW_RANK accepts RANDOMIZED_RESPONSE (rho, or "
                + "epsilon+delta) or HARDT_ROTH (epsilon+delta), both REPLACE_ONE only; TOP_SINGULAR_VECTORS accepts "
                + "those two, NOISY_POWER and PRIVATE_OJA (rho, or epsilon+delta) and ORBIT_SAMPLING (epsilon)",
                requiredMode = Schema.RequiredMode.REQUIRED) @Nullable String mechanism,
        @Schema(description = "epsilon in (0, 100]", example = "0.5") @Nullable BigDecimal epsilon,
        @Schema(description = "delta in (0, 0.01], with epsilon, for Gaussian mechanisms", example = "1e-7")
        @Nullable BigDecimal delta,
        @Schema(description = "rho in (0, 100], zCDP, instead of epsilon/delta (ZCDP accounting only)")
        @Nullable BigDecimal rho,
        @Schema(description = "Kind-specific parameters: PCA needs k (1..d); COVARIANCE takes k with EIGEN_SAMPLING "
                + "(rank, default min(d, 10)); center=true (ANALYZE_GAUSS, REPLACE_ONE) spends 10% of the budget on "
                + "private column sums and returns the scatter matrix; SKETCH takes eta and nu; LOW_RANK and "
                + "TOP_SINGULAR_VECTORS need k, and take shrink (RANDOMIZED_RESPONSE, HARDT_ROTH: true shrinks the released "
                + "singular values by the public noise level, Gavish-Donoho, free post-processing), oversampling "
                + "and coherence (HARDT_ROTH), iterations "
                + "(NOISY_POWER, PRIVATE_OJA), stepSize (PRIVATE_OJA) and spectrum (ORBIT_SAMPLING: PROJECTION or "
                + "PEELING)") @Nullable Map<String, Object> params) {}
