package io.privmat.mechanism.catalog;

import io.privmat.privacy.PrivacyArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/**
 * Every mechanism the service offers, and the one way to plan a query: find the mechanism, check the
 * dataset's shape and relation, read the budget and the parameters against what the mechanism
 * declares, and let it calibrate itself from public facts. The worker rebuilds a stored plan the same
 * way ({@link #rebuild}).
 */
public final class MechanismCatalog {

    private final Map<String, MechanismDefinition> byName = new LinkedHashMap<>();

    public MechanismCatalog(List<MechanismDefinition> definitions) {
        definitions.forEach(m -> {
            if (byName.put(m.name(), m) != null) {
                throw new IllegalArgumentException("duplicate mechanism " + m.name());
            }
        });
    }

    /**
     * The catalogue its values declare (docs/mechanisms/catalogue.md, "Adding a mechanism"): each
     * {@link MechanismDefinition} listed in {@code META-INF/services/io.privmat.mechanism.catalog.MechanismDefinition},
     * in the file's line order, then the values of each {@link MechanismFamily} listed in
     * {@code META-INF/services/io.privmat.mechanism.catalog.MechanismFamily}, in that file's line order
     * and each family's own order. The order is the served contract's and the dashboard's.
     *
     * @throws IllegalStateException when two values share a name
     */
    public static MechanismCatalog load() {
        ClassLoader loader = MechanismCatalog.class.getClassLoader();
        List<MechanismDefinition> values = new ArrayList<>();
        ServiceLoader.load(MechanismDefinition.class, loader).forEach(values::add);
        ServiceLoader.load(MechanismFamily.class, loader).forEach(family -> values.addAll(family.definitions()));
        try {
            return new MechanismCatalog(values);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * The catalogue {@link #load} finds, loaded once. The service's one catalogue is the Spring bean
     * of io.privmat.config.MechanismCatalogConfiguration, which its services take by constructor;
     * tests and that configuration call this (ArchitectureTest keeps other main code from it).
     */
    public static MechanismCatalog standard() {
        return Loaded.STANDARD;
    }

    /** Loads the catalogue on first use (not while this class initialises). */
    private static final class Loaded {
        static final MechanismCatalog STANDARD = load();
    }

    public List<MechanismDefinition> all() {
        return List.copyOf(byName.values());
    }

    public Optional<MechanismDefinition> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * The served description of a declared fact: the vocabulary's own text, then each distinct note
     * the catalogue's mechanisms declare on it ({@link MechanismDefinition#factNotes}), in catalogue
     * order and each mechanism's order, joined by "; ".
     */
    public String description(Fact<?> fact) {
        List<String> parts = new ArrayList<>();
        if (!fact.description().isEmpty()) {
            parts.add(fact.description());
        }
        byName.values().stream().flatMap(m -> m.factNotes().stream()).filter(n -> n.fact() == fact)
                .map(Fact.Note::text).distinct().forEach(parts::add);
        return String.join("; ", parts);
    }

    /**
     * The first value that declares itself the start-up warm-up's representative
     * ({@link MechanismDefinition#warmUpRepresentative}).
     *
     * @throws IllegalStateException when none does
     */
    public MechanismDefinition warmUpRepresentative() {
        return byName.values().stream().filter(MechanismDefinition::warmUpRepresentative).findFirst()
                .orElseThrow(() -> new IllegalStateException("no mechanism is the warm-up's representative"));
    }

    /** The mechanisms that answer {@code kind}, in catalogue order. */
    public List<MechanismDefinition> forKind(QueryKind kind) {
        return byName.values().stream().filter(m -> m.kinds().contains(kind)).toList();
    }

    /**
     * Plans a query from the request's public values and the dataset's public facts.
     *
     * @throws PlanningException for anything that cannot be planned (nothing is charged)
     */
    public Plan plan(@Nullable String kindName, @Nullable String mechanismName, QueryBudget budget,
            @Nullable RequestParams rawParams, PublicFacts facts) {
        return plan(kindName, mechanismName, budget, rawParams, facts, PublicArtifacts.inline());
    }

    /** {@link #plan(String, String, QueryBudget, Map, PublicFacts)} with public artifacts resolved by the service. */
    public Plan plan(@Nullable String kindName, @Nullable String mechanismName, QueryBudget budget,
            @Nullable RequestParams rawParams, PublicFacts facts, PublicArtifacts artifacts) {
        QueryKind kind = parseKind(kindName);
        MechanismDefinition mechanism = parseMechanism(kind, mechanismName);
        return plan(kind, mechanism, budget, rawParams, facts, artifacts);
    }

    /**
     * Rebuilds the plan a stored spec describes, through the same validation as a new request.
     *
     * @throws IllegalArgumentException when the spec names a mechanism this catalogue does not have
     * @throws PlanningException when the spec does not plan (as a request with its values would not)
     */
    public Plan rebuild(ParsedSpec spec) {
        return rebuild(spec, PublicArtifacts.inline());
    }

    /** {@link #rebuild(ParsedSpec)} with public artifacts resolved by the service. */
    public Plan rebuild(ParsedSpec spec, PublicArtifacts artifacts) {
        MechanismDefinition mechanism = find(spec.mechanism())
                .orElseThrow(() -> new IllegalArgumentException("unknown mechanism " + spec.mechanism()));
        return plan(spec.kind(), mechanism, spec.budget(), spec.params(), spec.facts(), artifacts);
    }

    /** What a quote of {@code plan} states about its error (public parameters only). */
    public List<ErrorStatement> expectedError(Plan plan) {
        return definition(plan).expectedError(plan);
    }

    /** The intervals and bounds a result of {@code plan} carries (released values and public parameters only). */
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        return definition(plan).accuracy(plan, release, level);
    }

    /** What a quote of {@code plan} warns about its noise (public parameters only; docs/accuracy/warnings.md). */
    public List<NoiseWarning> warnings(Plan plan) {
        MechanismDefinition m = definition(plan);
        return m.warnings(plan, m.expectedError(plan));
    }

    /** What a result warns about its noise, from the released values and public parameters only. */
    public List<NoiseWarning> warnings(Plan plan, Release release, ResultAccuracy accuracy) {
        return definition(plan).warnings(plan, release, accuracy);
    }

    private MechanismDefinition definition(Plan plan) {
        return find(plan.spec().mechanism())
                .orElseThrow(() -> new IllegalArgumentException("unknown mechanism " + plan.spec().mechanism()));
    }

    private Plan plan(QueryKind kind, MechanismDefinition mechanism, QueryBudget budget, @Nullable RequestParams rawParams,
            PublicFacts facts, PublicArtifacts artifacts) {
        if (!mechanism.kinds().contains(kind)) {
            throw PlanningException.invalid("mechanism", names(kind), "mechanism for " + kind + " must be one of "
                    + names(kind));
        }
        if (!mechanism.shapes().contains(facts.shape())) {
            throw new PlanningException(PlanningException.Reason.WRONG_DATASET_KIND, mechanism.name() + " for " + kind
                    + " needs a " + mechanism.shapes().iterator().next() + " dataset; this one is a " + facts.shape()
                    + "." + forShape(kind, facts.shape()), Map.of());
        }
        if ((facts.shape() == DataShape.MATRIX || facts.shape() == DataShape.STREAM)
                && !(facts.rowNormBound() >= PublicFacts.MIN_ROW_NORM_BOUND)) {
            // A dataset stored before the floor: refuse before any charge (see MIN_ROW_NORM_BOUND).
            throw PlanningException.invalid("rowNormBound", "[1e-100, 1e12]", "this dataset's rowNormBound "
                    + facts.rowNormBound() + " is below 1e-100: its sensitivities (B², B⁴/…) underflow and no mechanism "
                    + "can calibrate noise to them; recreate it with the rows rescaled");
        }
        if (facts.ratings() != null && !mechanism.ratingsRelations().contains(facts.ratings().relation())) {
            // Entry-level mechanisms need Ω and m public: only the RATING relation declares them.
            throw new PlanningException(PlanningException.Reason.WRONG_DATASET_KIND, mechanism.name() + " is "
                    + "entry-level (one rating is the privacy unit): it needs a RATINGS dataset declared with relation "
                    + mechanism.ratingsRelations().iterator().next() + ", where Ω and the user count m are public; this "
                    + "dataset's relation is " + facts.ratings().relation() + ", under which one user's whole row is "
                    + "the privacy unit and m is not public. Nothing was charged.", Map.of("relation",
                    facts.ratings().relation().name(), "requiredRelation", mechanism.ratingsRelations().stream()
                    .map(Enum::name).sorted().toList()));
        }
        if (!mechanism.relations().contains(facts.relation())) {
            throw PlanningException.invalid("mechanism", "a mechanism supporting " + facts.relation(), mechanism.name()
                    + " supports " + mechanism.relations() + " only; this dataset is " + facts.relation());
        }
        try {
            QueryBudget checked = budget.read(mechanism.budgetForm(), mechanism.name(), facts.mode(), mechanism.maxEpsilon());
            Params params = Params.parse(mechanism.name(), mechanism.params(), rawParams);
            return mechanism.plan(kind, checked, params, facts, artifacts);
        } catch (PrivacyArgumentException e) {
            throw PlanningException.of(e);
        }
    }

    private static QueryKind parseKind(@Nullable String kind) {
        String allowed = String.join(" | ", Arrays.stream(QueryKind.values()).map(Enum::name).toList());
        if (kind == null) {
            throw PlanningException.invalid("kind", allowed, "kind is required: one of " + allowed);
        }
        try {
            return QueryKind.valueOf(kind.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw PlanningException.invalid("kind", allowed, "kind must be one of " + allowed);
        }
    }

    private MechanismDefinition parseMechanism(QueryKind kind, @Nullable String mechanism) {
        String m = mechanism == null ? "" : mechanism.strip().toUpperCase(Locale.ROOT);
        MechanismDefinition found = byName.get(m);
        if (found == null || !found.kinds().contains(kind)) {
            throw PlanningException.invalid("mechanism", names(kind), "mechanism for " + kind + " must be one of "
                    + names(kind));
        }
        return found;
    }

    /** " For a SHAPE dataset: A | B." naming the mechanisms of {@code kind} that read it, or "". */
    private String forShape(QueryKind kind, DataShape shape) {
        List<String> names = forKind(kind).stream().filter(m -> m.shapes().contains(shape))
                .map(MechanismDefinition::name).toList();
        return names.isEmpty() ? "" : " For a " + shape + " dataset: " + String.join(" | ", names) + ".";
    }

    private String names(QueryKind kind) {
        return String.join(" | ", forKind(kind).stream().map(MechanismDefinition::name).toList());
    }
}
