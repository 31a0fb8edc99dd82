package io.privmat.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of HTTP tests: the whole service on a random port against the embedded real PostgreSQL
 * (one server per JVM, one cached Spring context for every subclass with the same settings).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "privmat.bootstrap-admin-key=" + ApiTest.ADMIN_KEY,
    "privmat.security.requests-per-second=1000000", "privmat.security.burst=1000000",
    // No background JIT warm-up in tests (WarmupTest runs it directly): it costs each context a few
    // seconds of CPU on a shared machine and makes no test faster.
    "privmat.warmup.enabled=false",
    // EXTERNAL datasets may be declared under these prefixes (ExternalDatasetTest; no engine by default).
    "privmat.external.allowed-locations=/lake/privmat/,s3a://lake/privmat/"})
public abstract class ApiTest {

    /** The bootstrap ADMIN key of every test context. */
    public static final String ADMIN_KEY = "pm_test_admin_key_0123456789abcdef";

    /** Keys created once per test database (keyed by port): [owner, analyst, other owner, other analyst]. */
    private static final java.util.Map<Integer, String[]> KEYS = new java.util.concurrent.ConcurrentHashMap<>();

    /** The key sent by the helpers unless a method takes one: the OWNER key. */
    protected String key() {
        return keys()[0];
    }

    protected String ownerKey() {
        return keys()[0];
    }

    protected String analystKey() {
        return keys()[1];
    }

    protected String otherOwnerKey() {
        return keys()[2];
    }

    protected String otherAnalystKey() {
        return keys()[3];
    }

    /** Subject of {@link #analystKey()}. */
    protected static final String ANALYST = "analyst-a";

    private String[] keys() {
        return KEYS.computeIfAbsent(port, p -> new String[] {
            createKey("owner-a", "OWNER"), createKey(ANALYST, "ANALYST"),
            createKey("owner-b", "OWNER"), createKey("analyst-b", "ANALYST")});
    }

    protected String createKey(String subject, String role) {
        Response r = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/v1/api-keys")).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString(
                "{\"name\":\"" + subject + "\",\"subject\":\"" + subject + "\",\"role\":\"" + role + "\"}")));
        if (r.status() != 201) {
            throw new AssertionError("key creation failed: " + r);
        }
        return r.json().get("key").asString();
    }

    protected static final ObjectMapper JSON = JsonMapper.builder()
            .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcTemplate jdbc;

    protected URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    protected Response send(HttpRequest.Builder builder) {
        return sendAs(key(), builder);
    }

    /** Sends with the given key ({@code null}: no Authorization header). */
    protected Response sendAs(String apiKey, HttpRequest.Builder builder) {
        if (apiKey != null) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
        try {
            HttpResponse<byte[]> r = CLIENT.send(builder.timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return new Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
                    r.headers().firstValue("Location").orElse(null), r.body(), r.headers());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected Response get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    protected Response delete(String path) {
        return send(HttpRequest.newBuilder(uri(path)).DELETE());
    }

    protected Response postJson(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    protected Response put(String path, String contentType, byte[] body) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** Creates a dataset and returns its id. */
    /** PUTs a CSV file as a dataset's data, timed, with the heap read right after (benchmark harnesses). */
    protected HeapPeaks.Measured<Response> measuredCsvUpload(String datasetId, java.nio.file.Path csv) {
        return HeapPeaks.measure(() -> {
            try {
                return send(HttpRequest.newBuilder(uri("/v1/datasets/" + datasetId + "/data"))
                        .header("Content-Type", "text/csv").PUT(HttpRequest.BodyPublishers.ofFile(csv)));
            } catch (java.io.FileNotFoundException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    protected String createMatrix(double rowNormBound) {
        Response r = postJson("/v1/datasets", "{\"name\":\"t\",\"kind\":\"MATRIX\",\"rowNormBound\":" + rowNormBound
                + ",\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        if (r.status() != 201) {
            throw new AssertionError("create failed: " + r);
        }
        return r.json().get("id").asString();
    }

    /** The JSON of a declared vertex universe with these labels (default: "a" … "z"). */
    protected static String vertices(String... labels) {
        if (labels.length == 0) {
            labels = "abcdefghijklmnopqrstuvwxyz".split("");
        }
        StringBuilder json = new StringBuilder("{\"labels\":[");
        for (int i = 0; i < labels.length; i++) {
            json.append(i == 0 ? "\"" : ",\"").append(labels[i]).append('"');
        }
        return json.append("]}").toString();
    }

    /** Labels prefix0 … prefix(n − 1). */
    protected static String[] labels(String prefix, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = prefix + i;
        }
        return out;
    }

    /** A GRAPH with a declared vertex universe (default labels "a" … "z"). */
    protected String createGraph(String... labels) {
        Response r = postJson("/v1/datasets", "{\"name\":\"g\",\"kind\":\"GRAPH\",\"vertices\":" + vertices(labels)
                + ",\"budget\":{\"epsilon\":1,\"delta\":1e-6}}");
        if (r.status() != 201) {
            throw new AssertionError("create failed: " + r);
        }
        return r.json().get("id").asString();
    }

    protected Response postJson(String path, String json, String idempotencyKey) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A READY matrix dataset with the given budget JSON, rows of a small fixed matrix. */
    protected String readyMatrix(String budgetJson, String neighbouring) {
        Response r = postJson("/v1/datasets", "{\"name\":\"q\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"" + neighbouring + "\",\"budget\":" + budgetJson + "}");
        String id = r.json().get("id").asString();
        Response up = put("/v1/datasets/" + id + "/data", "text/csv",
                "0.1,0.2,0.3\n0.3,0.2,0.1\n0,0,1\n0.5,0.5,0\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        if (up.status() != 200) {
            throw new AssertionError(up.toString());
        }
        return id;
    }

    /** Submits a query to a dataset (expecting 202) and polls the job to its end. */
    protected JsonNode submitAndAwait(String datasetId, String query) {
        Response r = postJson("/v1/datasets/" + datasetId + "/queries", query);
        if (r.status() != 202) {
            throw new AssertionError(query + " → " + r);
        }
        return awaitJob(r.json().get("id").asString());
    }

    /** The job's ledger entries without ids, dataset, job and time: what was charged and how. */
    protected List<Map<String, Object>> chargedEntries(String jobId) {
        return jdbc.queryForList("SELECT entry_type, kind, mechanism, parameters::text AS parameters, loss::text AS loss, "
                + "rho, epsilon, delta, caller FROM ledger_entry WHERE job_id = ?::uuid ORDER BY id", jobId);
    }

    /** Polls a job until it reaches a terminal state (or fails the test after 30 s). */
    protected JsonNode awaitJob(String jobId) {
        return awaitJob(jobId, Duration.ofSeconds(30));
    }

    /** Polls a job until it reaches a terminal state (or fails the test after {@code limit}). */
    protected JsonNode awaitJob(String jobId, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode job = get("/v1/jobs/" + jobId).json();
            String state = job.get("state").asString();
            if (state.equals("DONE") || state.equals("FAILED") || state.equals("CANCELLED")) {
                return job;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("job " + jobId + " did not finish");
    }

    /** Submits a query, waits until its job is DONE and returns the result document. */
    protected JsonNode runQuery(String datasetId, String query) {
        return runQuery(datasetId, query, Duration.ofSeconds(30));
    }

    /** As {@link #runQuery(String, String)}, waiting up to {@code limit} (long jobs on a loaded machine). */
    protected JsonNode runQuery(String datasetId, String query, Duration limit) {
        Response r = postJson("/v1/datasets/" + datasetId + "/queries", query);
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        JsonNode job = awaitJob(r.json().get("id").asString(), limit);
        assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("DONE");
        return get("/v1/jobs/" + job.get("id").asString() + "/result").json();
    }

    /** A JSON array of arrays as a double matrix. */
    protected static double[][] matrix(JsonNode node) {
        double[][] m = new double[node.size()][];
        for (int i = 0; i < node.size(); i++) {
            m[i] = node.get(i).valueStream().mapToDouble(JsonNode::asDouble).toArray();
        }
        return m;
    }

    /** An HTTP response. */
    public record Response(int status, String contentType, String location, byte[] body,
            java.net.http.HttpHeaders headers) {

        public Response(int status, String contentType, String location, byte[] body) {
            this(status, contentType, location, body, java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true));
        }

        /** A response header's first value, or null. */
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String text() {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return status + " " + text();
        }
    }
}
