package io.privmat.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.query.QueryRequest;
import io.privmat.support.ApiTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The served result schemas (written from the result records, {@link ResultSchemas}) against the
 * results the service serves: every mechanism answers each of its kinds, with its catalogue example
 * request (the one the contract shows), on each dataset shape it reads, and a subscription job gives
 * its result. Every member of every result, nested ones included, must be declared by its kind's
 * schema, a null only where the schema allows it, every required member present; and every member a
 * kind's schema declares must be written by at least one of its results.
 */
class ResultSchemasTest extends ApiTest {

    private static final String BUDGET = "{\"epsilon\":1,\"delta\":1e-6}";

    @Autowired
    private MechanismCatalog catalog;

    @Test
    void everyServedResultWritesWhatItsSchemaDeclaresAndNothingElse() {
        JsonNode schemas = get("/v3/api-docs").json().at("/components/schemas");
        JsonNode mapping = schemas.at("/QueryResult/discriminator/mapping");
        Map<String, Set<String>> written = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        int results = 0;
        for (MechanismDefinition m : catalog.all()) {
            for (QueryKind kind : m.kinds()) {
                for (DataShape shape : new TreeSet<>(m.shapes())) {
                    if (shape == DataShape.STREAM) {
                        continue; // window mechanisms answer subscriptions, below
                    }
                    String where = m.name() + " " + kind + " on " + shape;
                    // A graph sketch needs a graph of a thousand vertices or more at a moderate budget.
                    String query = shape == DataShape.GRAPH ? "{\"kind\":\"" + kind + "\",\"mechanism\":\""
                            + m.name() + "\",\"epsilon\":2,\"delta\":1e-6,\"params\":{\"eta\":0.3,\"nu\":0.1}}"
                            : request(m, kind);
                    JsonNode result = runQuery(dataset(shape, m), query);
                    check(where, result, schemas, mapping, written, problems);
                    results++;
                }
            }
        }
        JsonNode subscription = subscribe(schemas);
        check("a subscription", subscription, schemas, mapping, written, problems);
        assertThat(problems).isEmpty();
        assertThat(results).as("results rendered").isGreaterThan(30);

        List<String> unwritten = new ArrayList<>();
        for (var kind : mapping.properties()) {
            String ref = kind.getValue().asString();
            String name = ref.substring(ref.lastIndexOf('/') + 1);
            Set<String> missing = new TreeSet<>();
            schemas.get(name).get("properties").propertyNames().forEach(missing::add);
            missing.removeAll(written.getOrDefault(kind.getKey(), Set.of()));
            missing.forEach(member -> unwritten.add(name + "." + member));
        }
        assertThat(unwritten).as("declared but written by none of the kind's results").isEmpty();
    }

    /** The catalogue's example request for this kind (CatalogueSchemas, the contract's examples). */
    private static String request(MechanismDefinition m, QueryKind kind) {
        QueryRequest r = CatalogueSchemas.exampleRequest(m, kind);
        ObjectNode node = JSON.createObjectNode().put("kind", r.kind()).put("mechanism", r.mechanism());
        if (r.epsilon() != null) {
            node.put("epsilon", r.epsilon());
        }
        if (r.delta() != null) {
            node.put("delta", r.delta());
        }
        if (r.rho() != null) {
            node.put("rho", r.rho());
        }
        if (r.params() != null) {
            node.set("params", JSON.valueToTree(r.params().asMap()));
        }
        return node.toString();
    }

    /**
     * A fresh READY dataset of this shape for one query: a REPLACE_ONE matrix with a header (so that
     * the public row count and the column names are written), a graph, a histogram, ratings with item
     * labels under the relation the mechanism reads (1500 vertices: the
     * graph sketch's smallest is about a thousand at the budget it is asked with).
     */
    private String dataset(DataShape shape, MechanismDefinition m) {
        String body;
        String data;
        String budget = BUDGET;
        switch (shape) {
            case MATRIX -> {
                body = "{\"name\":\"m\",\"kind\":\"MATRIX\",\"rowNormBound\":1,\"neighbouring\":\"REPLACE_ONE\"";
                data = "a,b,c\n0.1,0.2,-0.2\n0.3,0.4,0\n0,0.5,0.5\n0.2,0.1,0.6\n";
            }
            case GRAPH -> {
                body = "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":" + vertices(labels("v", 1500));
                StringBuilder ring = new StringBuilder();
                for (int u = 0; u < 1500; u++) {
                    ring.append('v').append(u).append(",v").append((u + 1) % 1500).append(",1\n");
                }
                data = ring.toString();
                budget = "{\"epsilon\":10,\"delta\":1e-4}";
            }
            case HISTOGRAM -> {
                body = "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":[{\"name\":\"a\",\"size\":8}]";
                data = "a\n0\n5\n5\n";
            }
            case RATINGS -> {
                String relation = m.ratingsRelations().contains(RatingsRelation.USER) ? "USER" : "RATING";
                body = "{\"name\":\"r\",\"kind\":\"RATINGS\",\"ratings\":{\"itemLabels\":[\"w\",\"x\",\"y\",\"z\"],"
                        + "\"min\":1,\"max\":5,\"perUserCap\":2,\"relation\":\"" + relation + "\"}";
                data = "user,item,rating\na,w,4\na,y,1\nb,x,5\nc,z,2\n";
            }
            default -> throw new IllegalArgumentException(shape.name());
        }
        Response created = postJson("/v1/datasets", body + ",\"budget\":" + budget + "}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", data.getBytes(StandardCharsets.UTF_8));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    /** The contract's example subscription on a matrix stream; its job's result. */
    private JsonNode subscribe(JsonNode schemas) {
        Response stream = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"stream\":{\"columns\":3,\"blockRows\":4,\"windowBlocks\":2,\"horizonBlocks\":6},\"budget\":"
                + BUDGET + "}");
        assertThat(stream.status()).as(stream.toString()).isEqualTo(201);
        JsonNode example = schemas.at("/SubscriptionRequest/example");
        Response created = postJson("/v1/datasets/" + stream.json().get("id").asString() + "/subscriptions",
                example.toString());
        assertThat(created.status()).as(example + " -> " + created).isEqualTo(201);
        String job = created.json().get("jobId").asString();
        assertThat(awaitJob(job).get("state").asString()).isEqualTo("DONE");
        return get("/v1/jobs/" + job + "/result").json();
    }

    private static void check(String where, JsonNode result, JsonNode schemas, JsonNode mapping,
            Map<String, Set<String>> written, List<String> problems) {
        String kind = result.path("kind").asString("");
        String ref = mapping.path(kind).asString("");
        if (ref.isEmpty()) {
            problems.add(where + ": kind '" + kind + "' has no result schema");
            return;
        }
        result.propertyNames().forEach(written.computeIfAbsent(kind, k -> new TreeSet<>())::add);
        conforms(where + " " + kind, result, named(schemas, ref), schemas, problems);
    }

    private static JsonNode named(JsonNode schemas, String ref) {
        return schemas.path(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** Every member declared (recursively), nulls only where allowed, required members present. */
    private static void conforms(String where, JsonNode value, JsonNode schema, JsonNode schemas,
            List<String> problems) {
        if (schema.has("$ref")) {
            conforms(where, value, named(schemas, schema.get("$ref").asString()), schemas, problems);
            return;
        }
        if (value.isNull()) {
            boolean allowed = schema.path("type").isArray() && schema.get("type").valueStream()
                    .anyMatch(t -> t.asString().equals("null"));
            if (!allowed) {
                problems.add(where + ": null, which the schema does not allow");
            }
            return;
        }
        if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                conforms(where + "[" + i + "]", value.get(i), schema.path("items"), schemas, problems);
            }
            return;
        }
        if (!value.isObject() || !schema.has("properties")) {
            return;
        }
        for (var member : value.properties()) {
            JsonNode declared = schema.get("properties").get(member.getKey());
            if (declared == null) {
                problems.add(where + "." + member.getKey() + ": written but not declared");
            } else {
                conforms(where + "." + member.getKey(), member.getValue(), declared, schemas, problems);
            }
        }
        for (JsonNode required : schema.path("required")) {
            if (!value.has(required.asString())) {
                problems.add(where + "." + required.asString() + ": required but not written");
            }
        }
    }
}
