package io.privmat.query.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privmat.mechanism.catalog.DataShape;
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
 * a working example); {@code QueryResult} is a {@code oneOf} of the result kinds, written from the
 * result records ({@link ResultSchemas}). The documents
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
            ResultSchemas.register(schemas, catalog);
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
        return exampleRequest(m, m.kinds().stream().sorted().findFirst().orElseThrow());
    }

    /** The example request of {@code m} for one of its kinds (the result contract's test runs each). */
    static QueryRequest exampleRequest(MechanismDefinition m, QueryKind kind) {
        BigDecimal epsilon = m.budgetForm() == QueryBudget.Form.GAUSSIAN ? null : new BigDecimal("0.1");
        BigDecimal delta = m.budgetForm() == QueryBudget.Form.APPROXIMATE ? new BigDecimal("1e-8") : null;
        BigDecimal rho = m.budgetForm() == QueryBudget.Form.GAUSSIAN ? new BigDecimal("0.005") : null;
        RequestParams params = m.exampleParams(kind);
        return new QueryRequest(kind.name(), m.name(), epsilon, delta, rho, params.isEmpty() ? null : params.sorted());
    }
}
