package io.privmat.query;

import java.math.BigDecimal;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /v1/datasets/{id}/queries} and {@code …/queries/quote}, as bound from JSON.
 * Its published schema ({@code QueryRequest}: a {@code oneOf} over the mechanisms) is written from
 * the mechanism catalogue by {@code query.web.CatalogueSchemas}, and the same catalogue validates
 * every field ({@link io.privmat.mechanism.catalog.MechanismCatalog#plan}).
 */
public record QueryRequest(@Nullable String kind, @Nullable String mechanism, @Nullable BigDecimal epsilon,
        @Nullable BigDecimal delta, @Nullable BigDecimal rho, @Nullable Map<String, Object> params) {}
