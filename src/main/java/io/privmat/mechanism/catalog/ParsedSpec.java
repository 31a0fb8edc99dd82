package io.privmat.mechanism.catalog;

/**
 * A stored spec read back, before the mechanism validates its parameters again
 * ({@link MechanismCatalog#rebuild(ParsedSpec, PublicArtifacts)}). Everything is typed but the
 * parameters: those are checked against the mechanism's {@link Param} declarations, like a request's.
 */
public record ParsedSpec(QueryKind kind, String mechanism, QueryBudget budget, RequestParams params,
        PublicFacts facts) {}
