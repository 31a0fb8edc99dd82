package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * One mechanism of the catalogue, describing itself (OpenDP's measurement — relation, measure, map —
 * is the model). Implementations are stateless; {@link #plan} calibrates one instance from public
 * parameters. Adding a mechanism: a class implementing this (public, with a public no-argument
 * constructor), its line in {@code META-INF/services/io.privmat.mechanism.catalog.MechanismDefinition}
 * (where {@link MechanismCatalog#load} finds it), its test (the mechanism contract suite picks it up)
 * and its doc row under docs/mechanisms/.
 */
public interface MechanismDefinition {

    /** The name used in requests, upper case with underscores; unique in the catalogue. */
    String name();

    /** One sentence for the contract: what it releases and its guarantee. */
    String summary();

    /** The query kinds it answers. */
    Set<QueryKind> kinds();

    /** The dataset kinds it reads. */
    Set<DataShape> shapes();

    /** The neighbouring relations (of matrix rows) under which its analysis holds. */
    Set<NeighbouringRelation> relations();

    /**
     * On RATINGS datasets, the ratings relations its analysis covers: all of them for the user-level
     * mechanisms (RATING calibrated as USER); RATING only for the entry-level ones, which need Ω and the
     * user count m public. Planning on another relation is refused before anything is charged.
     */
    default Set<RatingsRelation> ratingsRelations() {
        return java.util.EnumSet.allOf(RatingsRelation.class);
    }

    /** Which budget fields it takes. */
    QueryBudget.Form budgetForm();

    /** Largest ε its analysis covers. */
    default BigDecimal maxEpsilon() {
        return QueryBudget.MAX_EPSILON;
    }

    /** Its typed parameters (names, ranges, defaults). */
    List<Param> params();

    /**
     * What the shared facts it writes mean for it, in the order they are served: the vocabularies
     * ({@link NoiseFacts}, {@link ReleaseMeta}) declare each fact once in words that fit every
     * mechanism, and a mechanism whose value needs its own reading declares it here, naming itself.
     * The catalogue merges the notes into the served descriptions ({@link MechanismCatalog#description}).
     * Values of one family may return the same note; it is served once.
     */
    default List<Fact.Note> factNotes() {
        return List.of();
    }

    /**
     * Whether the service warms the just-in-time compiler with this mechanism at start-up: a PCA from
     * the Gram (parameter {@code k}) whose release runs the common covariance path (exact noise,
     * eigendecomposition, projection). The catalogue's first such value is used
     * ({@link MechanismCatalog#warmUpRepresentative}).
     */
    default boolean warmUpRepresentative() {
        return false;
    }

    /**
     * Parameters of a working request for {@code kind}: valid on every dataset shape and relation the
     * mechanism accepts with at least one column. The served contract shows them as the request's
     * example and the mechanism contract tests plan with them, so a mechanism with required
     * parameters brings its own.
     */
    RequestParams exampleParams(QueryKind kind);

    /** The exact statistic it reads from a dataset of this shape (what its plans' releases read). */
    Input input(DataShape shape);

    /**
     * Its declared sensitivity for this kind, these validated parameters and these public facts (the
     * contract tests check it empirically).
     */
    Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts);

    /**
     * Neighbouring changes at which the declared {@link #sensitivity} is attained, for the relation
     * (or the graph) of {@code facts}: rows of norm ≤ B (an added row under ADD_REMOVE, a replaced
     * one under REPLACE_ONE), or an added edge. They are the proof that the declaration is not loose;
     * the contract tests require the statistic to move by more than half the declared value on them.
     */
    List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts);

    /**
     * The pre-noise statistic whose movement {@link #sensitivity} bounds, computed exactly from the
     * data (for the contract tests; never released).
     */
    double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data);

    /**
     * Calibrates the mechanism for one query from public values only.
     *
     * @param budget already checked against {@link #budgetForm()} and the accounting mode
     * @param params already checked against {@link #params()}
     * @throws PlanningException for parameters that are invalid on these facts
     */
    Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts);

    /**
     * The error a release of {@code plan} will have, known before anything is spent: computed from
     * the plan's public parameters only (budget, validated parameters, public facts, noise facts),
     * per entry, per query or in a matrix norm as the mechanism's theory gives it, at
     * {@link ResultAccuracy#DEFAULT_LEVEL} where it is a probability statement. Quotes show it.
     * Every catalogue value states at least one (the mechanism contract tests require it); the
     * default states none so that a value written elsewhere compiles and is caught by those tests.
     */
    default List<ErrorStatement> expectedError(Plan plan) {
        return List.of();
    }

    /**
     * The intervals and error bounds of one release of {@code plan} at {@code level}: a function of
     * the released values and the plan's public parameters only (never of the data), each interval
     * containing its estimate. Results carry it. Required like {@link #expectedError}.
     */
    default ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return new ResultAccuracy(level, List.of(), List.of(), "not stated");
    }

    /**
     * What a quote of {@code plan} warns (public parameters only): by default the ceiling rule of
     * {@link SignalToNoise#quote} over {@code expected}, the plan's {@link #expectedError}.
     */
    default List<NoiseWarning> warnings(Plan plan, List<ErrorStatement> expected) {
        return SignalToNoise.quote(plan, expected);
    }

    /**
     * What a result of {@code plan} warns, from {@code release}'s values and public parameters only
     * (post-processing): by default the spectrum and interval rules of {@link SignalToNoise#result}
     * over {@code accuracy}, this release's {@link #accuracy}. Mechanisms whose spectrum carries no
     * intervals override it.
     */
    default List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
        return SignalToNoise.result(release, accuracy);
    }

    /**
     * Calibrates the mechanism with public artifacts the service resolved (stored workloads, cached
     * strategies). Mechanisms that need none ignore them.
     */
    default Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts, PublicArtifacts artifacts) {
        return plan(kind, budget, params, facts);
    }
}
