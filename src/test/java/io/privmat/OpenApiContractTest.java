package io.privmat;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.support.ApiTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * openapi.yaml at the top level is the contract: it must equal what the running service serves.
 * Regenerate it deliberately with {@code ./mvnw test -Dtest=OpenApiContractTest -Dprivmat.openapi.write=true};
 * add {@code -Dcodegen.skip=true} when the old file no longer generates the client that
 * {@link OpenApiClientFlowTest} compiles against (that test is then left out of the build).
 */
class OpenApiContractTest extends ApiTest {

    private static final Path CONTRACT = Path.of("openapi.yaml");

    @Test
    void servedSpecEqualsTheCheckedInContract() throws IOException {
        Response served = get("/v3/api-docs.yaml");
        assertThat(served.status()).isEqualTo(200);
        String spec = normalise(served.text());
        if (Boolean.getBoolean("privmat.openapi.write")) {
            Files.writeString(CONTRACT, spec, StandardCharsets.UTF_8);
        }
        assertThat(CONTRACT).as("openapi.yaml is missing; run with -Dprivmat.openapi.write=true").exists();
        assertThat(normalise(Files.readString(CONTRACT, StandardCharsets.UTF_8)))
                .as("openapi.yaml differs from the served spec; regenerate with -Dprivmat.openapi.write=true "
                        + "and review the diff")
                .isEqualTo(spec);
    }

    @Test
    void swaggerUiIsServed() {
        Response ui = get("/swagger-ui/index.html");
        assertThat(ui.status()).isEqualTo(200);
        assertThat(ui.text()).contains("Swagger UI");
    }

    /**
     * What generated clients and linters need: a 2xx response with its content type on every operation
     * (a 204 has none), errors as problem+json only, unique readable operation ids, an SPDX licence.
     */
    @Test
    void everyOperationIsTypedForGeneratedClients() {
        JsonNode spec = get("/v3/api-docs").json();
        assertThat(spec.at("/info/license/identifier").asString()).isEqualTo("Apache-2.0");
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (var path : spec.get("paths").properties()) {
            for (var op : path.getValue().properties()) {
                String where = op.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey();
                String id = op.getValue().path("operationId").asString("");
                if (!id.matches("[a-z][A-Za-z]+") || !ids.add(id)) {
                    problems.add(where + ": operationId '" + id + "' is not a unique readable name");
                }
                boolean success = false;
                for (var response : op.getValue().get("responses").properties()) {
                    String code = response.getKey();
                    JsonNode content = response.getValue().path("content");
                    if (code.startsWith("2")) {
                        success = true;
                        if (!code.equals("204") && (content.isMissingNode() || content.isEmpty()
                                || content.has("application/problem+json"))) {
                            problems.add(where + ": " + code + " declares no success content type");
                        }
                    } else if (!code.equals("default")
                            && (content.size() != 1 || !content.has("application/problem+json"))) {
                        problems.add(where + ": " + code + " is not application/problem+json only");
                    }
                }
                if (!success) {
                    problems.add(where + ": no 2xx response");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /**
     * Every schema is typed: no free-form objects ({@code additionalProperties: true} or {}) and no
     * property without a type, reference or composition — noise facts, plans' parameters,
     * factorisation facts and release metadata included. (A linter such as Redocly's passes this spec
     * with its recommended rules; it is not run here because it needs Node and a download.)
     */
    @Test
    void everySchemaIsTyped() {
        JsonNode spec = get("/v3/api-docs").json();
        List<String> problems = new ArrayList<>();
        untyped(spec.at("/components/schemas"), "components.schemas", problems);
        untyped(spec.get("paths"), "paths", problems);
        assertThat(problems).isEmpty();
    }

    private static void untyped(JsonNode node, String where, List<String> problems) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                untyped(node.get(i), where + "[" + i + "]", problems);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        JsonNode extra = node.get("additionalProperties");
        if (extra != null && (extra.isBoolean() && extra.asBoolean() || extra.isObject() && extra.isEmpty())) {
            problems.add(where + ": free-form object (additionalProperties " + extra + ")");
        }
        for (var field : node.properties()) {
            String key = field.getKey();
            if (key.equals("example") || key.equals("examples")) {
                continue;
            }
            if (key.equals("properties")) {
                for (var property : field.getValue().properties()) {
                    JsonNode p = property.getValue();
                    if (List.of("type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const").stream().noneMatch(p::has)) {
                        problems.add(where + "." + property.getKey() + ": no type");
                    }
                    untyped(p, where + "." + property.getKey(), problems);
                }
            } else {
                untyped(field.getValue(), where + "/" + key, problems);
            }
        }
    }

    /**
     * Every oneOf (query requests, subscription requests, workloads, results) has a discriminator, and
     * each member a required discriminating property with exactly one value, the one the mapping gives
     * it: generators that try each member in turn (openapi-generator's Python client by default) find
     * exactly one that matches, with or without reading the mapping.
     */
    @Test
    void everyOneOfMemberHasARequiredOneValueDiscriminator() {
        JsonNode schemas = get("/v3/api-docs").json().at("/components/schemas");
        List<String> problems = new ArrayList<>();
        int members = 0;
        for (var schema : schemas.properties()) {
            JsonNode oneOf = schema.getValue().get("oneOf");
            if (oneOf == null) {
                continue;
            }
            String property = schema.getValue().at("/discriminator/propertyName").asString("");
            if (property.isEmpty()) {
                problems.add(schema.getKey() + ": a oneOf without a discriminator");
                continue;
            }
            Set<String> values = new HashSet<>();
            for (JsonNode member : oneOf) {
                members++;
                String ref = member.path("$ref").asString("");
                String name = ref.substring(ref.lastIndexOf('/') + 1);
                JsonNode m = schemas.path(name);
                JsonNode allowed = m.at("/properties/" + property + "/enum");
                boolean required = false;
                for (JsonNode r : m.path("required")) {
                    required |= r.asString().equals(property);
                }
                if (!required || allowed.size() != 1) {
                    problems.add(schema.getKey() + " member " + name + ": " + property + " is "
                            + (required ? "" : "not required and ") + "of " + allowed.size() + " values");
                    continue;
                }
                String value = allowed.get(0).asString();
                if (!values.add(value)) {
                    problems.add(schema.getKey() + ": two members have " + property + " " + value);
                }
                if (!schema.getValue().at("/discriminator/mapping/" + value).asString("").equals(ref)) {
                    problems.add(schema.getKey() + ": the mapping does not send " + value + " to " + name);
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(members).as("the oneOfs checked").isGreaterThan(30);
    }

    /**
     * Swagger UI's "Try it out" body is the schema's example, or else built from its properties'
     * examples, defaults, first enum values and type placeholders ("string", 0, true): sent as is, it
     * must be accepted.
     */
    @Test
    void swaggerUiExampleBodiesAreAccepted() {
        JsonNode spec = get("/v3/api-docs").json();
        JsonNode key = example(spec, "CreateApiKeyRequest");
        Response created = sendAs(ADMIN_KEY, java.net.http.HttpRequest.newBuilder(uri("/v1/api-keys"))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(key.toString())));
        assertThat(created.status()).as(key + " -> " + created).isEqualTo(201);

        JsonNode dataset = example(spec, "CreateDatasetRequest");
        Response r = postJson("/v1/datasets", dataset.toString());
        assertThat(r.status()).as(dataset + " -> " + r).isEqualTo(201);
        String id = r.json().get("id").asString();

        JsonNode grant = example(spec, "GrantRequest");
        Response g = postJson("/v1/datasets/" + id + "/grants", grant.toString());
        assertThat(g.status()).as(grant + " -> " + g).isEqualTo(201);

        // Each text upload format's example, into a dataset made from the example (it is a MATRIX).
        JsonNode formats = spec.at("/paths/~1v1~1datasets~1{id}~1data/put/requestBody/content");
        for (String format : List.of("text/csv", "text/tab-separated-values", "application/x-matrix-market")) {
            String target = format.equals("text/csv") ? id : postJson("/v1/datasets", dataset.toString()).json()
                    .get("id").asString();
            String body = formats.at("/" + format.replace("/", "~1") + "/schema/example").asString();
            Response up = put("/v1/datasets/" + target + "/data", format, body.getBytes(StandardCharsets.UTF_8));
            assertThat(up.status()).as(format + " " + body + " -> " + up).isEqualTo(200);
            assertThat(up.json().get("cols").asLong()).isEqualTo(3);
        }

        // Every mechanism's example query (and the QueryRequest example Swagger UI shows first) is quoted
        // as sent on the example dataset.
        List<JsonNode> queries = new java.util.ArrayList<>(List.of(example(spec, "QueryRequest")));
        spec.at("/components/schemas/QueryRequest/oneOf").forEach(variant -> queries.add(sample(spec, variant)));
        assertThat(queries).hasSize(1 + spec.at("/components/schemas/QueryRequest/oneOf").size()).hasSizeGreaterThan(10);
        // LINEAR_QUERIES examples on a small HISTOGRAM (their shape); every other on the example MATRIX.
        Response histogram = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"attributes\":"
                + "[{\"name\":\"a\",\"size\":8}],\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(histogram.status()).as(histogram.toString()).isEqualTo(201);
        String histogramId = histogram.json().get("id").asString();
        assertThat(put("/v1/datasets/" + histogramId + "/data", "text/csv", "a\n0\n5\n".getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        // COMPLETION examples on a small RATINGS dataset.
        Response ratings = postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"RATINGS\",\"ratings\":{\"items\":4,"
                + "\"min\":1,\"max\":5,\"perUserCap\":2},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(ratings.status()).as(ratings.toString()).isEqualTo(201);
        String ratingsId = ratings.json().get("id").asString();
        assertThat(put("/v1/datasets/" + ratingsId + "/data", "text/csv", "a,0,4\na,2,1\nb,1,5\n"
                .getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
        // The entry-level low-rank examples on a small RATINGS dataset under RATING (m public).
        Response entry = postJson("/v1/datasets", "{\"name\":\"e\",\"kind\":\"RATINGS\",\"ratings\":{\"items\":4,"
                + "\"min\":1,\"max\":5,\"perUserCap\":2,\"relation\":\"RATING\"},\"budget\":{\"epsilon\":1,"
                + "\"delta\":1e-6}}");
        assertThat(entry.status()).as(entry.toString()).isEqualTo(201);
        String entryId = entry.json().get("id").asString();
        assertThat(put("/v1/datasets/" + entryId + "/data", "text/csv", "a,0,4\na,2,1\nb,1,5\nc,3,2\n"
                .getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
        for (JsonNode query : queries) {
            String kind = query.path("kind").asString("");
            boolean entryLevel = MechanismCatalog.standard()
                    .find(query.path("mechanism").asString("")).map(m -> !m.ratingsRelations()
                            .contains(RatingsRelation.USER)).orElse(false);
            String target = kind.equals("LINEAR_QUERIES") ? histogramId : kind.equals("COMPLETION") ? ratingsId
                    : entryLevel ? entryId : id;
            Response q = postJson("/v1/datasets/" + target + "/queries/quote", query.toString());
            assertThat(q.status()).as(query + " -> " + q).isEqualTo(200);
            assertThat(q.json().get("admissible").asBoolean()).as(query + " -> " + q).isTrue();
        }

        // Every window mechanism's example subscription (and the SubscriptionRequest example) is quoted as
        // sent on a stream of the example's width.
        Response stream = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"stream\":" + example(spec, "StreamRequest") + ",\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        assertThat(stream.status()).as(stream.toString()).isEqualTo(201);
        List<JsonNode> subscriptions = new java.util.ArrayList<>(List.of(example(spec, "SubscriptionRequest")));
        spec.at("/components/schemas/SubscriptionRequest/oneOf").forEach(v -> subscriptions.add(sample(spec, v)));
        assertThat(subscriptions).hasSize(4);
        for (JsonNode subscription : subscriptions) {
            Response q = postJson("/v1/datasets/" + stream.json().get("id").asString() + "/subscriptions/quote",
                    subscription.toString());
            assertThat(q.status()).as(subscription + " -> " + q).isEqualTo(200);
            assertThat(q.json().get("admissible").asBoolean()).as(subscription + " -> " + q).isTrue();
        }

        // The free release queries: a matrix sketch of the CSV example's 3 columns.
        JsonNode sketch = runQuery(id, "{\"kind\":\"SKETCH\",\"mechanism\":\"WISHART\",\"epsilon\":0.1,\"delta\":5e-8}");
        JsonNode directional = example(spec, "DirectionalVarianceRequest");
        Response d = postJson("/v1/releases/" + sketch.get("releaseId").asString() + "/directional-variance",
                directional.toString());
        assertThat(d.status()).as(directional + " -> " + d).isEqualTo(200);
    }

    /** Swagger UI's sample of a component schema (enough of its rules for privmat's request bodies). */
    private static JsonNode example(JsonNode spec, String component) {
        return sample(spec, spec.at("/components/schemas/" + component));
    }

    private static JsonNode sample(JsonNode spec, JsonNode schema) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asString().substring("#/components/schemas/".length());
            return sample(spec, spec.at("/components/schemas/" + name));
        }
        if (schema.has("example")) {
            return schema.get("example");
        }
        if (schema.has("default")) {
            return schema.get("default");
        }
        if (schema.has("enum")) {
            return schema.get("enum").get(0);
        }
        String type = schema.path("type").isArray() ? schema.get("type").get(0).asString()
                : schema.path("type").asString("object");
        return switch (type) {
            case "string" -> f.stringNode("string");
            case "number", "integer" -> f.numberNode(0);
            case "boolean" -> f.booleanNode(true);
            case "array" -> {
                ArrayNode a = f.arrayNode();
                a.add(sample(spec, schema.path("items")));
                yield a;
            }
            default -> {
                ObjectNode o = f.objectNode();
                for (var property : schema.path("properties").properties()) {
                    o.set(property.getKey(), sample(spec, property.getValue()));
                }
                yield o;
            }
        };
    }

    private static String normalise(String yaml) {
        String unix = yaml.replace("\r\n", "\n");
        return unix.endsWith("\n") ? unix : unix + "\n";
    }
}
