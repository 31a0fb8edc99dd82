package io.privmat.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzing every operation of the served OpenAPI document (so a new endpoint is fuzzed without
 * touching this test): path, query and header parameters, JSON bodies mutated from each schema's
 * example, upload bodies of every accepted media type, wrong media types. Hostile values: numbers
 * at and beyond the edges of double and BigDecimal, negative and overflowing sizes and shapes,
 * control characters and lone surrogates, oversized strings and arrays, deep nesting, wrong JSON
 * types, malformed JSON. Every answer must be below 500, every 4xx a problem (type, title and the
 * same status), small and quick; afterwards the service must still be ready and answer a normal
 * query. A fixed seed and {@code privmat.fuzz.cases-per-operation} cases per operation (default 10;
 * the slow variant runs 150). Issue 36 added fixtures so that strategies (a histogram and its
 * strategy key), predictions (a COMPLETION job whose user labels include '/', '..', '%' and a
 * control character), workloads and stream appends are fuzzed past "not found", and malformed UTF-8
 * and sparse-amplifying shapes among the upload bodies.
 */
@Tag("fuzz")
class ApiFuzzTest extends ApiTest {

    static final long SEED = 16_2026L;

    @Test
    void everyOperationAnswersHostileInputWithAProblem() {
        fuzz(Integer.getInteger("privmat.fuzz.cases-per-operation", 10));
    }

    @Test
    @Tag("slow")
    void everyOperationAnswersHostileInputWithAProblemManyCases() {
        fuzz(150);
    }

    private void fuzz(int casesPerOperation) {
        Fixtures fixtures = new Fixtures();
        JsonNode spec = get("/v3/api-docs").json();
        Fuzzer fuzzer = new Fuzzer(spec, new Random(SEED));
        Map<String, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        int operations = 0;
        long slowest = 0;
        for (var path : spec.get("paths").properties()) {
            for (var op : path.getValue().properties()) {
                operations++;
                String method = op.getKey().toUpperCase(java.util.Locale.ROOT);
                for (int c = 0; c < casesPerOperation; c++) {
                    Fuzzer.Case fc = fuzzer.next(method, path.getKey(), op.getValue(), fixtures);
                    if (fc == null) {
                        continue;
                    }
                    long start = System.nanoTime();
                    Response r;
                    try {
                        r = sendAs(fc.key(), fc.request());
                    } catch (IllegalArgumentException clientRefused) {
                        continue; // a header value the HTTP client itself will not send
                    }
                    long took = System.nanoTime() - start;
                    slowest = Math.max(slowest, took);
                    statuses.merge(r.status() / 100 + "xx " + r.status(), 1, Integer::sum);
                    String problem = check(r, took);
                    if (problem != null) {
                        failures.add(fc.describe() + " → " + problem);
                    }
                }
            }
        }
        System.out.printf("fuzz: seed %d, %d operations, %d cases per operation, statuses %s, slowest %d ms%n",
                SEED, operations, casesPerOperation, statuses, slowest / 1_000_000);
        assertThat(failures).as("cases answered wrongly").isEmpty();
        assertThat(operations).isGreaterThanOrEqualTo(20);
        // Healthy afterwards: ready, and a normal upload + query runs.
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/actuator/health/readiness")).GET()).status()).isEqualTo(200);
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        assertThat(runQuery(dataset, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}")
                .get("columnSums").size()).isEqualTo(3);
    }

    /** Null when the answer is acceptable, else what is wrong with it. */
    private static String check(Response r, long nanos) {
        if (r.status() >= 500) {
            return "status " + r.status() + ": " + abbreviate(r.text());
        }
        if (nanos > 15_000_000_000L) {
            return "took " + nanos / 1_000_000 + " ms";
        }
        if (r.body().length > 64 * 1024 && r.status() >= 400) {
            return "an error body of " + r.body().length + " bytes";
        }
        if (r.status() >= 400) {
            if (!r.contentType().startsWith("application/problem+json")) {
                return "status " + r.status() + " as " + r.contentType() + ": " + abbreviate(r.text());
            }
            JsonNode p;
            try {
                p = r.json();
            } catch (RuntimeException e) {
                return "a problem that is not JSON: " + abbreviate(r.text());
            }
            if (!p.path("type").asString("").startsWith("https://privmat.io/problems/") || !p.has("title")
                    || p.path("status").asInt() != r.status()) {
                return "an incomplete problem: " + abbreviate(r.text());
            }
        }
        return null;
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }

    /** Real resources, so that cases get past "not found" into validation. */
    final class Fixtures {
        final String matrix;
        final String job;
        final String matrixRelease;
        final String graphRelease;
        /** Issue 36: a histogram (strategies, linear queries), its strategy, a COMPLETION job, a stream. */
        final String histogram;
        final String strategyKey;
        final String completionJob;
        final String stream;
        /** The completion dataset's user labels, some of which no path segment can carry. */
        static final List<String> USERS = List.of("u/1", "..", "50%", "x\u0001y", "plain");

        Fixtures() {
            matrix = readyMatrix("{\"epsilon\":20,\"delta\":1e-5}", "REPLACE_ONE");
            assertThat(postJson("/v1/datasets/" + matrix + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                    .isEqualTo(201);
            JsonNode covariance = runQuery(matrix, "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.5}");
            matrixRelease = covariance.path("releaseId").asString(UUID.randomUUID().toString());
            Response sums = postJson("/v1/datasets/" + matrix + "/queries",
                    "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}");
            job = sums.json().get("id").asString();
            awaitJob(job);
            String graph = postJson("/v1/datasets", "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":"
                    + vertices(labels("v", 600)) + ",\"budget\":{\"epsilon\":10,"
                    + "\"delta\":1e-4}}").json().get("id").asString();
            StringBuilder ring = new StringBuilder();
            for (int u = 0; u < 600; u++) {
                ring.append('v').append(u).append(",v").append((u + 1) % 600).append('\n');
            }
            assertThat(put("/v1/datasets/" + graph + "/data", "text/csv", ring.toString().getBytes(StandardCharsets.UTF_8))
                    .status()).isEqualTo(200);
            Response sketch = postJson("/v1/datasets/" + graph + "/queries", "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\","
                    + "\"epsilon\":2,\"delta\":1e-6,\"params\":{\"eta\":0.3,\"nu\":0.1}}");
            assertThat(sketch.status()).as(sketch.toString()).isEqualTo(202);
            JsonNode done = awaitJob(sketch.json().get("id").asString());
            graphRelease = get("/v1/jobs/" + done.get("id").asString() + "/result").json().path("releaseId")
                    .asString(UUID.randomUUID().toString());
            histogram = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"ADD_REMOVE\","
                    + "\"budget\":{\"epsilon\":20,\"delta\":1e-5},\"attributes\":[{\"name\":\"x\",\"size\":16}]}").json()
                    .get("id").asString();
            assertThat(put("/v1/datasets/" + histogram + "/data", "text/csv", "x\n1\n5\n".getBytes(StandardCharsets.UTF_8))
                    .status()).isEqualTo(200);
            assertThat(postJson("/v1/datasets/" + histogram + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                    .isEqualTo(201);
            strategyKey = postJson("/v1/datasets/" + histogram + "/strategies", "{\"mechanism\":\"OPTIMIZED\","
                    + "\"params\":{\"workload\":{\"type\":\"PREFIX\"}}}").json().get("key").asString();
            String ratings = postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"RATINGS\",\"neighbouring\":"
                    + "\"REPLACE_ONE\",\"ratings\":{\"items\":4,\"min\":1,\"max\":5,\"perUserCap\":4,\"relation\":"
                    + "\"USER\"},\"budget\":{\"epsilon\":100,\"delta\":1e-6}}").json().get("id").asString();
            StringBuilder triples = new StringBuilder("user,item,rating\n");
            for (int u = 0; u < USERS.size(); u++) {
                triples.append('"').append(USERS.get(u)).append("\",").append(u % 4).append(",3\n");
            }
            assertThat(put("/v1/datasets/" + ratings + "/data", "text/csv", triples.toString().getBytes(
                    StandardCharsets.UTF_8)).status()).isEqualTo(200);
            Response completion = postJson("/v1/datasets/" + ratings + "/queries", "{\"kind\":\"COMPLETION\","
                    + "\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"epsilon\":8,\"delta\":1e-6,\"params\":"
                    + "{\"iterations\":2}}");
            completionJob = awaitJob(completion.json().get("id").asString()).get("id").asString();
            stream = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,\"stream\":"
                    + "{\"columns\":3,\"blockRows\":4,\"windowBlocks\":2,\"horizonBlocks\":100},\"budget\":"
                    + "{\"epsilon\":10,\"delta\":1e-6}}").json().get("id").asString();
            assertThat(postJson("/v1/datasets/" + stream + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                    .isEqualTo(201);
        }

        /** A fresh dataset without data, for one upload case. */
        String emptyMatrix() {
            return createMatrix(1);
        }

        String ownerKey() {
            return ApiFuzzTest.this.ownerKey();
        }

        String analystKey() {
            return ApiFuzzTest.this.analystKey();
        }

        URI uri(String path) {
            return ApiFuzzTest.this.uri(path);
        }
    }

    /** Turns an operation of the spec into hostile requests. */
    static final class Fuzzer {

        /** Hostile JSON values, as raw JSON text. */
        static final List<String> NUMBERS = List.of("1e308", "-1e308", "1.7976931348623157e308", "1e309", "-1e309",
                "4.9e-324", "2.2250738585072014e-308", "1e-400", "-0.0", "0", "-1", "2147483647", "2147483648",
                "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                "123456789012345678901234567890.12345678901234567890", "1e400", "1e999999999", "-1e999999999",
                "1E+50000000", "0.1e-99999999", "0." + "0".repeat(5000) + "1", "9".repeat(5000));
        static final List<String> STRINGS = List.of("\"\"", "\" \"", "\"\\u0000\"", "\"a\\u0000b\"", "\"\\u001b[31m\"",
                "\"\\t\\r\\n\"", "\"\\ud800\"", "\"\\udfff\\ud800\"", "\"\\u202e\"", "\"\\uffff\"", "\"é😀\"",
                "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"1e999\"", "\"null\"", "\"../../etc\"",
                "\"" + "a".repeat(100_000) + "\"", "\"%s%n%x\"", "\"<script>\"");
        static final List<String> STRUCTURES = List.of("{}", "[]", "null", "true", "false", "[null]", "[[]]",
                "{\"\":null}", "[1,\"a\",{},[]]", "[" + "0,".repeat(20_000) + "0]", "[".repeat(2_000) + "]".repeat(2_000),
                "{\"a\":".repeat(1_500) + "1" + "}".repeat(1_500), "[1e308,-1e308,4.9e-324]",
                "[[1e999999]]", "[[-1,-1],[2147483648]]");
        static final List<String> WHOLE_BODIES = List.of("", " ", "{", "}", "[", "{\"a\":}", "{,}", "nul", "\"x\"",
                "1e999999999", "{\"a\":1,\"a\":2}", "\u0000", "{\"x\":\"\u0001\"}", "\ufeff{}", "{'a':1}",
                "{\"a\":1}{\"b\":2}", "x".repeat(1_100_000));
        static final List<String> PARAMS = List.of("-1", "0", "2147483648", "-2147483649", "9223372036854775808",
                "1e999", "NaN", "", " ", "0x10", "1.5", "true", "٣", "%00", "a".repeat(5_000), "\u0000", "null");
        static final List<String> MEDIA_TYPES = List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
                "application/json; charset=UTF-16", "multipart/form-data; boundary=x", "*/*", "application/problem+json",
                "text/csv");

        private final JsonNode spec;
        private final Random random;

        Fuzzer(JsonNode spec, Random random) {
            this.spec = spec;
            this.random = random;
        }

        record Case(String key, HttpRequest.Builder request, String description) {
            String describe() {
                return description;
            }
        }

        private <T> T pick(List<T> items) {
            return items.get(random.nextInt(items.size()));
        }

        private String hostile() {
            return switch (random.nextInt(3)) {
                case 0 -> pick(NUMBERS);
                case 1 -> pick(STRINGS);
                default -> pick(STRUCTURES);
            };
        }

        Case next(String method, String template, JsonNode op, Fixtures fixtures) {
            String key = keyFor(method, template, fixtures);
            StringBuilder what = new StringBuilder(method).append(' ').append(template);
            String path = template;
            StringBuilder query = new StringBuilder();
            HttpRequest.Builder request = HttpRequest.newBuilder();
            List<String[]> headers = new ArrayList<>();
            for (JsonNode p : op.path("parameters")) {
                String name = p.get("name").asString();
                String in = p.get("in").asString();
                boolean hostile = random.nextInt(3) == 0;
                String value = hostile ? pick(PARAMS) : validParameter(method, template, name, fixtures);
                if (value == null) {
                    continue;
                }
                if (hostile) {
                    what.append(" ").append(name).append('=').append(abbreviate(value));
                }
                switch (in) {
                    case "path" -> path = path.replace("{" + name + "}", URLEncoder.encode(value, StandardCharsets.UTF_8)
                            .replace("+", "%20"));
                    case "query" -> query.append(query.length() == 0 ? "?" : "&").append(name).append('=')
                            .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
                    case "header" -> headers.add(new String[] {name, value});
                    default -> { }
                }
            }
            if (path.contains("{")) {
                return null;
            }
            request.uri(fixtures.uri(path + query));
            for (String[] h : headers) {
                try {
                    request.header(h[0], h[1]);
                } catch (IllegalArgumentException clientRefuses) {
                    what.append(" (header not sendable)");
                }
            }
            if (random.nextInt(10) == 0) {
                request.header("Accept", pick(List.of("application/xml", "text/html", "image/png", "*/*")));
            }
            JsonNode body = op.path("requestBody").path("content");
            if (body.isMissingNode() || body.isEmpty()) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
                return new Case(key, request, what.toString());
            }
            if (body.has("application/json")) {
                String[] typeAndBody = jsonBody(body.get("application/json").path("schema"), what);
                request.header("Content-Type", typeAndBody[0]);
                request.method(method, HttpRequest.BodyPublishers.ofString(typeAndBody[1]));
                return new Case(key, request, what.toString());
            }
            // An upload: a fresh dataset each time (an accepted one has its data for good).
            // (Stream appends go to the stream: it takes any number of batches.)
            String fresh = template.endsWith("/rows") ? fixtures.stream : fixtures.emptyMatrix();
            request.uri(fixtures.uri(template.replace("{id}", fresh) + (random.nextBoolean() ? "" : "?header="
                    + pick(List.of("true", "false", "maybe", "")))));
            List<String> types = new ArrayList<>();
            body.properties().forEach(e -> types.add(e.getKey()));
            String type = random.nextInt(8) == 0 ? pick(MEDIA_TYPES) : pick(types);
            byte[] upload = Uploads.hostile(type, random);
            what.append(" upload ").append(type).append(' ').append(abbreviate(new String(upload, 0,
                    Math.min(upload.length, 120), StandardCharsets.ISO_8859_1)));
            request.header("Content-Type", type);
            request.method(method, HttpRequest.BodyPublishers.ofByteArray(upload));
            return new Case(fixtures.ownerKey(), request, what.toString());
        }

        private String keyFor(String method, String template, Fixtures fixtures) {
            if (template.startsWith("/v1/api-keys") || template.startsWith("/v1/audit")) {
                return ADMIN_KEY;
            }
            if (template.startsWith("/v1/releases") || template.contains("/queries")) {
                return random.nextBoolean() ? fixtures.ownerKey() : fixtures.analystKey();
            }
            return fixtures.ownerKey();
        }

        /** A value that gets past "not found" (never the id of something a DELETE would destroy). */
        private String validParameter(String method, String template, String name, Fixtures fixtures) {
            boolean destructive = method.equals("DELETE");
            return switch (name) {
                case "id", "datasetId" -> {
                    if (destructive && !template.startsWith("/v1/jobs") && !template.contains("/grants/")) {
                        yield UUID.randomUUID().toString();
                    }
                    if (template.startsWith("/v1/jobs")) {
                        yield template.contains("predictions") && random.nextInt(4) != 0 ? fixtures.completionJob
                                : fixtures.job;
                    }
                    if (template.contains("/strategies") || template.contains("/queries") && random.nextBoolean()) {
                        yield fixtures.histogram;
                    }
                    if (template.contains("/rows") || template.contains("/subscriptions")) {
                        yield fixtures.stream;
                    }
                    if (template.startsWith("/v1/releases")) {
                        yield template.endsWith("/cuts") ? fixtures.graphRelease : fixtures.matrixRelease;
                    }
                    if (template.startsWith("/v1/api-keys")) {
                        yield UUID.randomUUID().toString();
                    }
                    yield fixtures.matrix;
                }
                case "analyst" -> "nobody-" + random.nextInt(1000);
                case "offset", "limit" -> Integer.toString(random.nextInt(100));
                case "after" -> Integer.toString(random.nextInt(10));
                case "Idempotency-Key" -> "fuzz-" + random.nextLong();
                case "key" -> random.nextInt(4) == 0 ? "0".repeat(64) : fixtures.strategyKey;
                case "user", "label" -> random.nextInt(4) == 0 ? "nobody-" + random.nextInt(1000)
                        : pick(Fixtures.USERS);
                case "index" -> Integer.toString(random.nextInt(8) - 2);
                case "header" -> random.nextBoolean() ? "true" : "false";
                default -> null;
            };
        }

        /** [content type, body] for an operation with a JSON body. */
        private String[] jsonBody(JsonNode schema, StringBuilder what) {
            String type = "application/json";
            int mode = random.nextInt(10);
            if (mode == 0) {
                String b = pick(WHOLE_BODIES);
                what.append(" body ").append(abbreviate(b));
                return new String[] {type, b};
            }
            if (mode == 1) {
                type = pick(MEDIA_TYPES);
                what.append(" as ").append(type);
            }
            JsonNode resolved = resolve(schema);
            JsonNode variant = resolved;
            if (resolved.has("oneOf")) {
                variant = resolve(resolved.get("oneOf").get(random.nextInt(resolved.get("oneOf").size())));
            }
            JsonNode example = variant.has("example") ? variant.get("example") : resolved.path("example");
            JsonNode base = example.isMissingNode() ? JSON.createObjectNode() : example.deepCopy();
            String marker = "\"__FUZZ_" + random.nextInt(1_000_000) + "__\"";
            String value = hostile();
            int action = random.nextInt(4);
            if (action == 0 && base instanceof ObjectNode object && variant.has("properties")) {
                // A declared field (present in the example or not), hostile.
                List<String> names = new ArrayList<>();
                variant.get("properties").properties().forEach(e -> names.add(e.getKey()));
                String field = pick(names);
                JsonNode declared = resolve(variant.get("properties").get(field));
                if (declared.has("properties") && random.nextBoolean()) {
                    // One level down (params.<name>, budget.<name>).
                    List<String> inner = new ArrayList<>();
                    declared.get("properties").properties().forEach(e -> inner.add(e.getKey()));
                    String sub = pick(inner);
                    ObjectNode child = object.get(field) instanceof ObjectNode o ? o : object.putObject(field);
                    child.put(sub, marker.substring(1, marker.length() - 1));
                    what.append(" ").append(field).append('.').append(sub);
                } else {
                    object.put(field, marker.substring(1, marker.length() - 1));
                    what.append(" ").append(field);
                }
            } else if (action == 1 && base instanceof ObjectNode object) {
                object.put("unknown" + random.nextInt(10), marker.substring(1, marker.length() - 1));
                what.append(" unknown field");
            } else if (action == 2 && base instanceof ObjectNode object && object.size() > 0) {
                List<String> names = new ArrayList<>();
                object.properties().forEach(e -> names.add(e.getKey()));
                String removed = pick(names);
                object.remove(removed);
                what.append(" without ").append(removed);
                return new String[] {type, base.toString()};
            } else {
                // Any node of the example.
                List<JsonNode> containers = new ArrayList<>();
                collect(base, containers);
                JsonNode target = containers.isEmpty() ? null : pick(containers);
                if (target instanceof ObjectNode o && o.size() > 0) {
                    List<String> names = new ArrayList<>();
                    o.properties().forEach(e -> names.add(e.getKey()));
                    String field = pick(names);
                    o.put(field, marker.substring(1, marker.length() - 1));
                    what.append(" at ").append(field);
                } else if (target instanceof ArrayNode a && a.size() > 0) {
                    a.set(random.nextInt(a.size()), tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(marker.substring(1, marker.length() - 1)));
                    what.append(" in an array");
                } else {
                    what.append(" whole");
                    return new String[] {type, value};
                }
            }
            what.append(" = ").append(abbreviate(value));
            return new String[] {type, base.toString().replace(marker, value)};
        }

        private static void collect(JsonNode node, List<JsonNode> out) {
            if (node.isObject() || node.isArray()) {
                out.add(node);
                for (JsonNode child : node) {
                    collect(child, out);
                }
            }
        }

        private JsonNode resolve(JsonNode schema) {
            JsonNode s = schema;
            for (int i = 0; i < 10 && s.has("$ref"); i++) {
                String ref = s.get("$ref").asString();
                s = spec.at(ref.substring(1));
            }
            return s;
        }

        private static String abbreviate(String s) {
            String printable = s.replaceAll("\\p{Cntrl}", "?");
            return printable.length() > 60 ? printable.substring(0, 60) + "…(" + s.length() + ")" : printable;
        }
    }
}
