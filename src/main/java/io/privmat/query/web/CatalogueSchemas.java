package io.privmat.query.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.FactVocabulary;
import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.query.QueryRequest;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The typed query contract, written from the mechanism catalogue so that it cannot drift from what
 * the service validates: {@code QueryRequest} is a {@code oneOf} with {@code mechanism} as its
 * discriminator, one request schema and one parameter schema per mechanism (types, ranges, defaults,
 * a working example); {@code QueryResult} is a {@code oneOf} of the result kinds. The documents
 * mechanisms attach to plans and results are typed from the same declarations: {@code NoiseFacts},
 * {@code FactorizationFacts} and {@code ReleaseMeta} from {@link FactVocabulary}, {@code PlannedParams}
 * (a stored plan's parameters) from the union of every mechanism's {@link Param}s.
 */
@Configuration(proxyBeanMethods = false)
class CatalogueSchemas {

    private static final String REF = "#/components/schemas/";

    @Bean
    OpenApiCustomizer mechanismCatalogueCustomizer(MechanismCatalog catalog) {
        return openApi -> {
            var schemas = openApi.getComponents().getSchemas();
            ComposedSchema request = new ComposedSchema();
            Discriminator discriminator = new Discriminator().propertyName("mechanism");
            for (MechanismDefinition m : catalog.all()) {
                String name = pascal(m.name());
                schemas.put(name + "Params", paramsSchema(m));
                schemas.put(name + "Query", querySchema(m, name));
                if (m.shapes().equals(java.util.Set.of(DataShape.STREAM))) {
                    continue; // window mechanisms answer subscriptions (SubscriptionRequest), not one-shot queries
                }
                request.addOneOfItem(new Schema<>().$ref(REF + name + "Query"));
                discriminator.mapping(m.name(), REF + name + "Query");
            }
            request.discriminator(discriminator);
            request.description("A query: the mechanism (the discriminator), the kind it answers, its budget (rho, or "
                    + "epsilon with delta, or epsilon alone, as the mechanism's schema says) and its typed params. "
                    + "The cost is computed from these public values before any data is read.");
            request.example(example(catalog.all().get(0)));
            schemas.put("QueryRequest", request);
            for (FactVocabulary v : List.of(NoiseFacts.VOCABULARY, FactorizationFacts.VOCABULARY,
                    ReleaseMeta.VOCABULARY)) {
                schemas.put(v.name(), factsSchema(v, catalog));
            }
            schemas.put("PlannedParams", plannedParams(catalog.all()));
            LinearWorkloadSchemas.register(schemas);
            // The free-form documents of the annotated views, typed by the schemas above.
            refer(schemas, "Quote", "noise", NoiseFacts.VOCABULARY.name(), "Public facts about the noise");
            refer(schemas, "PlannedParameters", "params", "PlannedParams", "The mechanism's parameters, validated, "
                    + "defaults filled in");
            refer(schemas, "Release", "meta", ReleaseMeta.VOCABULARY.name(), "Public facts behind the "
                    + "release's error bounds");
            results(schemas);
            var result = openApi.getPaths().get("/v1/jobs/{id}/result");
            if (result != null && result.getGet() != null && result.getGet().getResponses() != null) {
                var ok = result.getGet().getResponses().get("200");
                if (ok != null && ok.getContent() != null && ok.getContent().get("application/json") != null) {
                    ok.getContent().get("application/json").schema(new Schema<>().$ref(REF + "QueryResult"));
                }
            }
        };
    }

    static String pascal(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.toLowerCase(Locale.ROOT).split("_")) {
            out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return out.toString();
    }

    /** Replaces a Map-typed property of an annotated view by a reference to the schema that types it. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void refer(Map<String, Schema> schemas, String schema, String property, String component,
            String description) {
        Schema owner = schemas.get(schema);
        if (owner == null || owner.getProperties() == null || !owner.getProperties().containsKey(property)) {
            throw new IllegalStateException(schema + "." + property + " is not in the contract");
        }
        owner.getProperties().put(property, new Schema<>().$ref(REF + component).description(description));
    }

    /**
     * A document of declared public facts: each optional, typed, and nothing else; each described by
     * the vocabulary and the notes of the mechanisms that write it ({@link MechanismCatalog#description}).
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static Schema factsSchema(FactVocabulary vocabulary, MechanismCatalog catalog) {
        ObjectSchema s = new ObjectSchema();
        s.description(vocabulary.description());
        s.additionalProperties(false);
        for (Fact<?> f : vocabulary.fields()) {
            Schema fs = switch (f.type()) {
                case NUMBER -> new NumberSchema();
                case INTEGER -> new IntegerSchema().format("int64");
                case STRING -> new StringSchema();
                case BOOLEAN -> new BooleanSchema();
            };
            s.addProperty(f.name(), fs.description(catalog.description(f)));
        }
        return s;
    }

    /**
     * The parameters of any stored plan: the union of every mechanism's parameters, each with its
     * type (a name means the same type in every mechanism that declares it; checked here). Ranges and
     * defaults are the mechanism's own ({@code <Mechanism>Params}); a stored plan holds validated values.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static Schema plannedParams(List<MechanismDefinition> mechanisms) {
        Map<String, Param> byName = new java.util.TreeMap<>();
        Map<String, java.util.Set<String>> users = new java.util.TreeMap<>();
        Map<String, java.util.Set<String>> values = new java.util.TreeMap<>();
        for (MechanismDefinition m : mechanisms) {
            for (Param p : m.params()) {
                Param known = byName.putIfAbsent(p.name(), p);
                if (known != null && known.type() != p.type()) {
                    throw new IllegalStateException("parameter " + p.name() + " is " + known.type() + " in one "
                            + "mechanism and " + p.type() + " in " + m.name());
                }
                users.computeIfAbsent(p.name(), n -> new java.util.TreeSet<>()).add(m.name());
                values.computeIfAbsent(p.name(), n -> new java.util.TreeSet<>()).addAll(p.values());
            }
        }
        ObjectSchema s = new ObjectSchema();
        s.description("The mechanism's parameters, validated, defaults filled in (each mechanism's own schema, "
                + "<Mechanism>Params, gives its ranges and defaults)");
        s.additionalProperties(false);
        byName.forEach((name, p) -> {
            Schema ps = switch (p.type()) {
                case INTEGER -> new IntegerSchema();
                case NUMBER -> new NumberSchema();
                case BOOLEAN -> new BooleanSchema();
                case INTEGER_LIST -> new ArraySchema().items(new IntegerSchema());
                case WORKLOAD -> new Schema<>().$ref(REF + "LinearWorkload");
                case ENUM -> {
                    StringSchema e = new StringSchema();
                    values.get(name).forEach(e::addEnumItem);
                    yield e;
                }
            };
            s.addProperty(name, ps.description("used by " + String.join(", ", users.get(name))));
        });
        return s;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema paramsSchema(MechanismDefinition m) {
        ObjectSchema s = new ObjectSchema();
        s.description("Parameters of " + m.name() + (m.params().isEmpty() ? " (none)" : ""));
        s.additionalProperties(false);
        for (Param p : m.params()) {
            Schema ps = switch (p.type()) {
                case INTEGER -> new IntegerSchema().minimum(BigDecimal.valueOf((long) (double) p.min()))
                        .maximum(BigDecimal.valueOf((long) (double) p.max()));
                case NUMBER -> {
                    NumberSchema n = new NumberSchema();
                    if (p.exclusiveBounds()) {
                        n.exclusiveMinimumValue(BigDecimal.valueOf(p.min()))
                                .exclusiveMaximumValue(BigDecimal.valueOf(p.max()));
                    } else {
                        n.minimum(BigDecimal.valueOf(p.min())).maximum(BigDecimal.valueOf(p.max()));
                    }
                    yield n;
                }
                case BOOLEAN -> new BooleanSchema();
                case INTEGER_LIST -> new ArraySchema().items(new IntegerSchema()
                        .minimum(BigDecimal.valueOf((long) (double) p.min()))
                        .maximum(BigDecimal.valueOf((long) (double) p.max()))).minItems(1).uniqueItems(true);
                case WORKLOAD -> new Schema<>().$ref(REF + "LinearWorkload");
                case ENUM -> {
                    StringSchema e = new StringSchema();
                    p.values().forEach(e::addEnumItem);
                    yield e;
                }
            };
            ps.description(p.description());
            if (p.defaultValue() != null) {
                ps.setDefault(p.defaultValue());
            }
            s.addProperty(p.name(), ps);
        }
        return s;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema querySchema(MechanismDefinition m, String name) {
        Schema<Object> s = new Schema<>();
        s.type("object");
        s.types(new java.util.LinkedHashSet<>(List.of("object")));
        s.description(m.summary() + " Answers " + m.kinds().stream().sorted().map(Enum::name).toList()
                + "; neighbouring relations " + m.relations().stream().sorted().map(Enum::name).toList() + "."
                + (m.ratingsRelations().containsAll(java.util.EnumSet.allOf(
                        RatingsRelation.class)) ? ""
                        : " Reads RATINGS datasets of ratings relation " + m.ratingsRelations().stream().sorted()
                                .map(Enum::name).toList() + " only."));
        StringSchema kind = new StringSchema();
        m.kinds().stream().sorted().forEach(k -> kind.addEnumItem(k.name()));
        s.addProperty("kind", kind);
        s.addProperty("mechanism", new StringSchema()._enum(List.of(m.name())));
        String maxEps = m.maxEpsilon().toPlainString();
        NumberSchema epsilon = range(m.maxEpsilon(), "epsilon in (0, " + maxEps + "]");
        NumberSchema delta = range(QueryBudget.MAX_DELTA, "delta in (0, 0.01]");
        switch (m.budgetForm()) {
            case GAUSSIAN -> {
                s.addProperty("epsilon", epsilon.description("epsilon in (0, " + maxEps + "], with delta"));
                s.addProperty("delta", delta.description("delta in (0, 0.01], with epsilon"));
                s.addProperty("rho", range(QueryBudget.MAX_RHO, "rho in (0, 100], zCDP, instead of epsilon and delta "
                        + "(ZCDP accounting only)"));
            }
            case PURE_EPSILON -> s.addProperty("epsilon", epsilon);
            case APPROXIMATE -> {
                s.addProperty("epsilon", epsilon);
                s.addProperty("delta", delta);
            }
            case PURE_OR_GAUSSIAN -> {
                s.addProperty("epsilon", epsilon.description("epsilon in (0, " + maxEps + "]: alone for pure "
                        + "epsilon-DP (Laplace noise), or with delta (Gaussian noise)"));
                s.addProperty("delta", delta.description("delta in (0, 0.01], with epsilon (Gaussian noise)"));
                s.addProperty("rho", range(QueryBudget.MAX_RHO, "rho in (0, 100], zCDP (Gaussian noise), instead of "
                        + "epsilon (ZCDP accounting only)"));
            }
        }
        s.addProperty("params", new Schema<>().$ref(REF + name + "Params"));
        if (!m.shapes().equals(java.util.Set.of(DataShape.STREAM))) {
            s.addProperty("reuse", new BooleanSchema()._default(false).description("Submission only (quotes and dry "
                    + "runs ignore it): answer with an earlier DONE job of the same canonical plan on the dataset's "
                    + "current data version that the caller may see, without a new charge (200); false: a new "
                    + "answer, charged (docs/accounting.md, \"Repeat answers\")"));
        }
        s.required(new ArrayList<>(List.of("kind", "mechanism")));
        s.additionalProperties(false);
        s.example(example(m));
        return s;
    }

    private static NumberSchema range(BigDecimal max, String description) {
        NumberSchema n = new NumberSchema();
        n.exclusiveMinimumValue(BigDecimal.ZERO).maximum(max);
        n.description(description);
        return n;
    }

    /**
     * A request for this mechanism that a READY dataset with the default budget admits (its absent
     * members are left out of the example).
     */
    static ObjectNode example(MechanismDefinition m) {
        QueryRequest request = exampleRequest(m);
        // The swagger mapper writes the record; the params, a RequestParams, as the JSON object they hold.
        ObjectNode node = Json.mapper().valueToTree(new QueryRequest(request.kind(), request.mechanism(),
                request.epsilon(), request.delta(), request.rho(), null));
        if (request.params() != null) {
            node.set("params", Json.mapper().valueToTree(request.params().asMap()));
        }
        return node;
    }

    private static QueryRequest exampleRequest(MechanismDefinition m) {
        QueryKind kind = m.kinds().stream().sorted().findFirst().orElseThrow();
        BigDecimal epsilon = m.budgetForm() == QueryBudget.Form.GAUSSIAN ? null : new BigDecimal("0.1");
        BigDecimal delta = m.budgetForm() == QueryBudget.Form.APPROXIMATE ? new BigDecimal("1e-8") : null;
        BigDecimal rho = m.budgetForm() == QueryBudget.Form.GAUSSIAN ? new BigDecimal("0.005") : null;
        RequestParams params = m.exampleParams(kind);
        return new QueryRequest(kind.name(), m.name(), epsilon, delta, rho, params.isEmpty() ? null : params.sorted());
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void results(Map<String, Schema> schemas) {
        ArraySchema vector = new ArraySchema().items(new NumberSchema());
        ArraySchema matrix = new ArraySchema().items(new ArraySchema().items(new NumberSchema()));
        Map<String, Schema> kinds = new LinkedHashMap<>();
        kinds.put("ColumnSumsResult", head("COLUMN_SUMS", "the noisy column sums").addProperty("columnSums", vector));
        kinds.put("CovarianceResult", head("COVARIANCE", "the post-processed private matrix; releaseId names the "
                + "raw release when it answers free directional variances")
                .addProperty("centered", new BooleanSchema()).addProperty("scale", new StringSchema())
                .addProperty("rows", new IntegerSchema().format("int64").description("n, only when it is public"))
                .addProperty("eigenvalues", vector).addProperty("covariance", matrix)
                .addProperty("noiseDominated", new BooleanSchema().description("the estimate is within the noise's "
                        + "own typical size (assessed for WISHART; false where not assessed)"))
                .addProperty("releaseId", new StringSchema().format("uuid")).addProperty("release", new StringSchema()));
        kinds.put("PcaResult", head("PCA", "the top-k components (d × k) and the eigenvalues")
                .addProperty("centered", new BooleanSchema()).addProperty("scale", new StringSchema())
                .addProperty("rows", new IntegerSchema().format("int64")).addProperty("eigenvalues", vector)
                .addProperty("noiseDominated", new BooleanSchema())
                .addProperty("k", new IntegerSchema()).addProperty("components", matrix));
        kinds.put("LowRankResult", factors(head("LOW_RANK", "the factorisation u·diag(s)·vᵀ: s, v (d × k) and u "
                + "(m × k, inline when m·k ≤ 100000, always as .npy)"))
                .addProperty("rows", new IntegerSchema().description("m, the number of records (rows of u)"))
                .addProperty("u", new ArraySchema().items(new ArraySchema().items(new NumberSchema()))
                        .description("the m × k rows, inline when m·k ≤ 100000"))
                .addProperty("uInline", new BooleanSchema().description("whether u is inline; when false "
                        + "(m·k > 100000) it is served only as application/x-npy")));
        kinds.put("TopSingularVectorsResult", factors(head("TOP_SINGULAR_VECTORS", "the top-k right singular "
                + "vectors v (d × k) and the singular values s")));
        kinds.put("SketchResult", head("SKETCH", "the stored release that answers cuts or directional variances for free")
                .addProperty("releaseId", new StringSchema().format("uuid")).addProperty("release", new StringSchema())
                .addProperty("releaseKind", new StringSchema()._enum(List.of("GRAPH_SKETCH", "MATRIX_SKETCH")))
                .addProperty("meta", new Schema<>().$ref(REF + ReleaseMeta.VOCABULARY.name())));
        kinds.put("RegressionResult", head("REGRESSION", "coefficients of the response on the predictors, each with "
                + "its interval (lower/upper of the kind `intervals` names; null where no finite bound follows) and "
                + "a first-order approximate interval; the estimand is the data's ridge solution at `ridge`")
                .addProperty("response", new IntegerSchema()).addProperty("predictors", new ArraySchema()
                        .items(new IntegerSchema())).addProperty("ridge", new NumberSchema())
                .addProperty("ridgeRule", new StringSchema()).addProperty("estimand", new StringSchema())
                .addProperty("level", new NumberSchema())
                .addProperty("intervals", new StringSchema()._enum(List.of("SIMULTANEOUS_BOUND", "EXACT_T")))
                .addProperty("coefficients", new ArraySchema().items(new Schema<>().$ref(REF + "RegressionCoefficient")))
                .addProperty("released", new ObjectSchema().additionalProperties(false).description(
                        "other released values of ADASSP: the private λ_min, its lower bound and η")
                        .addProperty("minEigenvalue", new NumberSchema())
                        .addProperty("minEigenvalueLowerBound", new NumberSchema())
                        .addProperty("eta", new NumberSchema())));
        kinds.put("LinearQueriesResult", head("LINEAR_QUERIES", "the workload answers W·x̂ (inline when m ≤ 100000, "
                + "always as .npy) with their standard deviations, the expected per-query RMSE stated before anything "
                + "was spent, and, except for LAPLACE_WORKLOAD, the stored estimate x̂ that answers further linear "
                + "queries for free (POST /v1/releases/{releaseId}/linear-queries)")
                .addProperty("queries", new IntegerSchema().description("m, the number of queries"))
                .addProperty("answersInline", new BooleanSchema().description("whether answers and "
                        + "standardDeviations are inline; when false they are served only as application/x-npy "
                        + "(answers) and by the release"))
                .addProperty("answers", new ArraySchema().items(new NumberSchema()).description("W·x̂ (or W·x + "
                        + "noise for LAPLACE_WORKLOAD), in the workload's query order"))
                .addProperty("standardDeviations", new ArraySchema().items(new NumberSchema()).description(
                        "each answer's standard deviation from the noise (exact, public)"))
                .addProperty("expectedRmsePerQuery", new NumberSchema().description("√(E‖answers − Wx‖²/m): the "
                        + "number the quote stated"))
                .addProperty("expectedTotalSquaredError", new NumberSchema())
                .addProperty("residualFrobenius", new NumberSchema().description("LOW_RANK_MECHANISM: ‖W − BL‖_F; "
                        + "the answers carry a data-dependent bias of at most this times ‖x‖₂"))
                .addProperty("releaseId", new StringSchema().format("uuid"))
                .addProperty("release", new StringSchema())
                .addProperty("releaseKind", new StringSchema()._enum(List.of("HISTOGRAM_ESTIMATE"))));
        kinds.put("CompletionResult", head("COMPLETION", "the global model only (joint DP): item directions and the "
                + "released spectrum (FRANK_WOLFE, SVD) or item factors (ALS), stored as a COMPLETION_MODEL release; "
                + "each user's completed row goes to the data owner only (GET /v1/jobs/{id}/predictions)")
                .addProperty("model", new StringSchema()._enum(List.of("FRANK_WOLFE", "SVD", "ALS")))
                .addProperty("items", new IntegerSchema().description("n, the declared item count"))
                .addProperty("itemLabels", new ArraySchema().items(new StringSchema()).description("the declared item "
                        + "labels in item order (when declared as labels and n ≤ 100000)"))
                .addProperty("iterations", new IntegerSchema().description("FRANK_WOLFE and ALS: T"))
                .addProperty("rank", new IntegerSchema().description("SVD and ALS: r"))
                .addProperty("directions", new ArraySchema().items(new ArraySchema().items(new NumberSchema()))
                        .description("FRANK_WOLFE: the T broadcast unit vectors v̂_t (T × n); SVD: the top r "
                                + "eigenvectors (n × r); inline when at most 100000 values, always as .npy"))
                .addProperty("directionsInline", new BooleanSchema())
                .addProperty("spectrum", new ArraySchema().items(new NumberSchema()).description("FRANK_WOLFE: "
                        + "λ̂_t = √max(0, λ_max(Ŵ_t)), the released spectrum"))
                .addProperty("spectrumUpperBounds", new ArraySchema().items(new NumberSchema()).description(
                        "FRANK_WOLFE: λ̂′_t, the public upper bounds the users' steps divide by"))
                .addProperty("eigenvalues", new ArraySchema().items(new NumberSchema()).description("SVD: the "
                        + "noisy Gram's top r eigenvalues"))
                .addProperty("itemFactors", new ArraySchema().items(new ArraySchema().items(new NumberSchema()))
                        .description("ALS: V_T (n × r), inline when at most 100000 values, always as .npy"))
                .addProperty("itemFactorsInline", new BooleanSchema())
                .addProperty("facts", new ObjectSchema().description("public facts of the run (noise scales, "
                        + "sensitivities, bounds)"))
                .addProperty("releaseId", new StringSchema().format("uuid"))
                .addProperty("release", new StringSchema())
                .addProperty("releaseKind", new StringSchema()._enum(List.of("COMPLETION_MODEL")))
                .addProperty("predictions", new StringSchema().description("where the data owner gets every user's "
                        + "completed row")));
        kinds.put("SubscriptionResult", head("SUBSCRIPTION", "a standing query on a stream, charged once; its window "
                + "releases are listed under the subscription")
                .addProperty("subscriptionId", new StringSchema().format("uuid"))
                .addProperty("queryKind", new StringSchema()._enum(List.of("COVARIANCE", "PCA", "SKETCH")))
                .addProperty("firstStreamBlock", new IntegerSchema().format("int64"))
                .addProperty("subscription", new StringSchema()));
        accuracy(schemas);
        ComposedSchema result = new ComposedSchema();
        Discriminator discriminator = new Discriminator().propertyName("kind");
        kinds.forEach((name, schema) -> {
            schemas.put(name, schema);
            result.addOneOfItem(new Schema<>().$ref(REF + name));
            // Each member's kind is a required one-value enum: a generator that tries every member
            // (openapi-generator's Python client by default) finds exactly one that matches.
            discriminator.mapping((String) ((Schema) schema.getProperties().get("kind")).getEnum().get(0), REF + name);
        });
        result.discriminator(discriminator).description("A query's result; its kind says which schema. The main array "
                + "is also served as application/x-npy.");
        schemas.put("QueryResult", result);
    }

    /**
     * The members every result has; {@code kind}, the discriminator, is this result schema's one kind
     * (a required one-value enum).
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static ObjectSchema head(String kind, String description) {
        ObjectSchema s = new ObjectSchema();
        s.description(kind + ": " + description);
        s.addProperty("jobId", new StringSchema().format("uuid").description("The job (absent in a dry run's "
                + "result, which has none)"));
        s.addProperty("datasetId", new StringSchema().format("uuid"));
        s.addProperty("kind", new StringSchema()._enum(List.of(kind)));
        s.addProperty("mechanism", new StringSchema());
        s.addProperty("neighbouring", new StringSchema()._enum(List.of("ADD_REMOVE", "REPLACE_ONE")));
        s.addProperty("rowNormBound", new NumberSchema());
        s.addProperty("columns", new ArraySchema().items(new StringSchema()).description("MATRIX datasets "
                + "uploaded with a header: the column names, in column order (public, like the shape)"));
        s.addProperty("loss", new Schema<>().$ref(REF + "Loss"));
        s.addProperty("noise", new Schema<>().$ref(REF + NoiseFacts.VOCABULARY.name()));
        s.addProperty("accuracy", new Schema<>().$ref(REF + "ResultAccuracy"));
        s.addProperty("warnings", new ArraySchema().items(new Schema<>().$ref(REF + "NoiseWarning")).description(
                "Noise warnings from the released values and public parameters only (post-processing): "
                + "NOISE_DOMINATED, COMPONENTS_IN_NOISE (docs/accuracy/warnings.md); empty when none applies"));
        s.required(new ArrayList<>(List.of("datasetId", "kind", "mechanism", "loss")));
        return s;
    }

    /** The members of both factorisation results: s, v (d × k) and the run's public facts. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static ObjectSchema factors(ObjectSchema head) {
        head.addProperty("k", new IntegerSchema()).addProperty("singularValues", new ArraySchema()
                .items(new NumberSchema())).addProperty("v", new ArraySchema().items(new ArraySchema()
                .items(new NumberSchema()))).addProperty("facts", new Schema<>().$ref(REF
                + FactorizationFacts.VOCABULARY.name()));
        return head;
    }

    /** The accuracy a result carries ({@code io.privmat.mechanism.catalog.ResultAccuracy}). */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void accuracy(Map<String, Schema> schemas) {
        ArraySchema vector = new ArraySchema().items(new NumberSchema());
        List<String> bases = java.util.Arrays.stream(ErrorBasis.values()).map(Enum::name)
                .toList();
        schemas.put("IntervalSet", new ObjectSchema().description("Intervals for the entries of one released "
                + "quantity, each holding with probability ≥ level on its own; each contains its estimate (clamped "
                + "as `clamp` says where the truth is non-negative)")
                .addProperty("quantity", new StringSchema()).addProperty("basis", new StringSchema()._enum(bases))
                .addProperty("level", new NumberSchema()).addProperty("estimate", vector)
                .addProperty("lower", vector).addProperty("upper", vector).addProperty("clamp", new StringSchema()));
        schemas.put("ResultAccuracy", new ObjectSchema().description("Intervals and error bounds of the result at "
                + "`level`, computed from the released values and public parameters only "
                + "(docs/accuracy/intervals.md)")
                .addProperty("level", new NumberSchema())
                .addProperty("intervals", new ArraySchema().items(new Schema<>().$ref(REF + "IntervalSet")))
                .addProperty("bounds", new ArraySchema().items(new Schema<>().$ref(REF + "ErrorStatement")))
                .addProperty("note", new StringSchema()));
    }
}
