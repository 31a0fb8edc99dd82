package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.RatingsSchema;
import io.privmat.dataset.StreamSchema;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.security.Caller;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * What the transparency record (docs/accounting.md, "Transparency record") needs from planning: a
 * stored release's accuracy statement, rebuilt from its stored spec, and a dataset's privacy unit.
 * Both come from public parameters only.
 */
@Service
public class Transparency {

    private final QueryPlans plans;

    Transparency(QueryPlans plans) {
        this.plans = plans;
    }

    /**
     * The expected error the plan of a stored spec states (public parameters only, as quoted before the
     * charge), or null when the spec no longer rebuilds here (e.g. a strategy not computed any more, or
     * a workload deleted): the record then says so rather than computing anything.
     */
    public @Nullable List<ErrorStatement> expectedError(String specJson, Caller caller) {
        try {
            Plan plan = plans.rebuildForView(specJson, caller);
            return plans.catalog().expectedError(plan);
        } catch (RuntimeException e) { // a planning refusal, a missing artifact: public facts only, no data read
            return null;
        }
    }

    /** The privacy unit a dataset declares: row, edge, record, user or rating (its kind and schema). */
    public static String privacyUnit(Dataset dataset) {
        DatasetKind kind = dataset.kind();
        return switch (kind) {
            case MATRIX -> "row";
            case EXTERNAL -> dataset.schema() instanceof ExternalSchema e && e.ratings() != null ? "user" : "row";
            case GRAPH -> "edge";
            case HISTOGRAM -> "record";
            case STREAM -> dataset.schema() instanceof StreamSchema s && s.graph() ? "edge" : "row";
            case RATINGS -> dataset.schema() instanceof RatingsSchema r
                    && r.declared() == RatingsSchema.Declared.RATING ? "rating" : "user";
        };
    }
}
