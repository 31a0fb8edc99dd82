package io.privmat.query;

import java.math.BigDecimal;
import io.privmat.mechanism.catalog.RequestParams;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /v1/datasets/{id}/queries} and {@code …/queries/quote}, as bound from JSON.
 * Its published schema ({@code QueryRequest}: a {@code oneOf} over the mechanisms) is written from
 * the mechanism catalogue by {@code query.web.CatalogueSchemas}, and the same catalogue validates
 * every field ({@link io.privmat.mechanism.catalog.MechanismCatalog#plan}). {@code reuse} (submission
 * only; quotes and dry runs ignore it) asks for an earlier answer to the same plan on the same data
 * version instead of a new charge (docs/accounting.md, "Repeat answers").
 */
public record QueryRequest(@Nullable String kind, @Nullable String mechanism, @Nullable BigDecimal epsilon,
        @Nullable BigDecimal delta, @Nullable BigDecimal rho, @Nullable RequestParams params,
        @Nullable Boolean reuse) {

    /** A request without {@code reuse} (a new answer, charged). */
    public QueryRequest(@Nullable String kind, @Nullable String mechanism, @Nullable BigDecimal epsilon,
            @Nullable BigDecimal delta, @Nullable BigDecimal rho, @Nullable RequestParams params) {
        this(kind, mechanism, epsilon, delta, rho, params, null);
    }

    /** True if the request opts in to a repeat answer. */
    public boolean reuseRequested() {
        return Boolean.TRUE.equals(reuse);
    }
}
