package io.privmat.mechanism.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stored spec read back, before the mechanism validates its parameters again
 * ({@link MechanismCatalog#rebuild(ParsedSpec, PublicArtifacts)}). Everything is typed but the
 * parameters: those are checked against the mechanism's {@link Param} declarations, like a request's.
 */
public record ParsedSpec(QueryKind kind, String mechanism, QueryBudget budget, Map<String, ?> params,
        PublicFacts facts) {

    public ParsedSpec {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }
}
