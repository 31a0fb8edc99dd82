package io.privmat.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Every endpoint × every kind of caller → the expected status. The endpoint list is enumerated
 * from the handler mappings: an endpoint added without a row here fails the test.
 */
class AuthorizationMatrixTest extends ApiTest {

    /** Distinct workload contents (workloads are stored by content). */
    private static final java.util.concurrent.atomic.AtomicInteger UNIQUE = new java.util.concurrent.atomic.AtomicInteger(
            (int) (System.nanoTime() & 0xffff) * 1000);

    /** Callers, in column order. */
    enum Who { NONE, REVOKED, ADMIN, OWNER, GRANTED_ANALYST, UNGRANTED_ANALYST, OTHER_OWNER }

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    /** A request for an endpoint, built against fresh fixtures. */
    record Call(String method, String path, String contentType, byte[] body) {}

    /** Fresh fixtures: a READY dataset owned by the OWNER and granted to the analyst, a DONE job of the analyst. */
    record Fixture(String dataset, String emptyDataset, String job, String throwawayKeyId, String release,
            String workload, java.util.function.Supplier<String[]> streamFixture,
            java.util.function.Supplier<String[]> histogramFixture) {

        /** A histogram granted to the analyst, made on first use (only the linear-query rows need it). */
        String histogram() {
            return histogramFixture.get()[0];
        }

        /** The key of a computed strategy on it. */
        String strategy() {
            return histogramFixture.get()[1];
        }

        /** The owner's HISTOGRAM_ESTIMATE release on it. */
        String histogramRelease() {
            return histogramFixture.get()[2];
        }

        /** The stream of the fixture, made on first use (only the stream rows need it). */
        String stream() {
            return streamFixture.get()[0];
        }

        /** The analyst's subscription on it, with one release. */
        String subscription() {
            return streamFixture.get()[1];
        }
    }

    private Fixture fixture() {
        String dataset = readyMatrix("{\"epsilon\":20,\"delta\":1e-6}", "REPLACE_ONE");
        String empty = createMatrix(1);
        grant(dataset, ANALYST);
        grant(empty, ANALYST);
        Response job = sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
        assertThat(job.status()).as(job.toString()).isEqualTo(202);
        String jobId = job.json().get("id").asString();
        awaitJob(jobId);
        Response key = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/v1/api-keys")).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"throwaway\",\"role\":\"ANALYST\"}")));
        Response cov = postJson("/v1/datasets/" + dataset + "/queries",
                "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.01}");
        String covJob = cov.json().get("id").asString();
        awaitJob(covJob);
        String release = get("/v1/jobs/" + covJob + "/result").json().get("releaseId").asString();
        Response workload = send(HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("1,1,0\n0,1," + UNIQUE.incrementAndGet() + "\n")));
        assertThat(workload.status()).as(workload.toString()).isEqualTo(201);
        String[] streamFixture = new String[2];
        String[] histogramFixture = new String[3];
        return new Fixture(dataset, empty, jobId, key.json().get("id").asString(), release,
                workload.json().get("id").asString(), () -> {
                    if (streamFixture[0] == null) {
                        String[] made = streamFixture();
                        streamFixture[0] = made[0];
                        streamFixture[1] = made[1];
                    }
                    return streamFixture;
                }, () -> {
                    if (histogramFixture[0] == null) {
                        System.arraycopy(histogramFixture(), 0, histogramFixture, 0, 3);
                    }
                    return histogramFixture;
                });
    }

    private static final String LINEAR = "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"OPTIMIZED\",\"rho\":0.01,"
            + "\"params\":{\"workload\":{\"type\":\"IDENTITY\"}}}";

    /** A histogram granted to the analyst, its OPTIMIZED strategy (computed inline) and the owner's estimate. */
    private String[] histogramFixture() {
        Response h = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":\"REPLACE_ONE\","
                + "\"attributes\":[{\"name\":\"a\",\"size\":4}],\"budget\":{\"epsilon\":20,\"delta\":1e-6}}");
        String id = h.json().get("id").asString();
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", "a\n0\n3\n".getBytes()).status()).isEqualTo(200);
        grant(id, ANALYST);
        Response quote = postJson("/v1/datasets/" + id + "/queries/quote", LINEAR);
        assertThat(quote.status()).as(quote.toString()).isEqualTo(200);
        String strategy = quote.json().get("noise").get("strategyKey").asString();
        String release = runQuery(id, LINEAR).get("releaseId").asString();
        return new String[] {id, strategy, release};
    }

    /** A stream granted to the analyst, with the analyst's subscription and its first release. */
    private String[] streamFixture() {
        Response stream = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"stream\":{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,\"horizonBlocks\":1000},"
                + "\"budget\":{\"epsilon\":20,\"delta\":1e-6}}");
        String streamId = stream.json().get("id").asString();
        grant(streamId, ANALYST);
        Response subscription = sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + streamId
                + "/subscriptions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(SUBSCRIPTION)));
        assertThat(subscription.status()).as(subscription.toString()).isEqualTo(201);
        Response appended = send(HttpRequest.newBuilder(uri("/v1/datasets/" + streamId + "/rows"))
                .header("Content-Type", "text/csv").POST(HttpRequest.BodyPublishers.ofString("0.1,0.2,0.3\n0,0,1\n")));
        assertThat(appended.status()).as(appended.toString()).isEqualTo(200);
        return new String[] {streamId, subscription.json().get("id").asString()};
    }

    private static final String SUBSCRIPTION = "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.001}";

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";

    private void grant(String dataset, String analyst) {
        Response r = postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + analyst + "\"}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
    }

    private record Row(Function<Fixture, Call> call, String[] expected) {}

    private static Call json(String method, String path, String body) {
        return new Call(method, path, "application/json", body.getBytes());
    }

    private static Call bare(String method, String path) {
        return new Call(method, path, null, new byte[0]);
    }

    /** Expected status per caller: NONE, REVOKED, ADMIN, OWNER, GRANTED, UNGRANTED, OTHER_OWNER. */
    private static Map<String, Row> table() {
        Map<String, Row> t = new LinkedHashMap<>();
        t.put("POST /v1/api-keys", new Row(f -> json("POST", "/v1/api-keys", "{\"name\":\"k\",\"role\":\"ANALYST\"}"),
                row("401 401 201 403 403 403 403")));
        t.put("GET /v1/api-keys", new Row(f -> bare("GET", "/v1/api-keys"), row("401 401 200 403 403 403 403")));
        t.put("DELETE /v1/api-keys/{id}", new Row(f -> bare("DELETE", "/v1/api-keys/" + f.throwawayKeyId()),
                row("401 401 200 403 403 403 403")));
        t.put("GET /v1/me", new Row(f -> bare("GET", "/v1/me"), row("401 401 200 200 200 200 200")));
        t.put("GET /v1/audit", new Row(f -> bare("GET", "/v1/audit"), row("401 401 200 403 403 403 403")));
        t.put("POST /v1/datasets", new Row(f -> json("POST", "/v1/datasets",
                "{\"name\":\"m\",\"kind\":\"GRAPH\",\"vertices\":{\"count\":3},\"budget\":{\"epsilon\":1,\"delta\":1e-6}}"),
                row("401 401 403 201 403 403 201")));
        t.put("GET /v1/datasets", new Row(f -> bare("GET", "/v1/datasets"), row("401 401 403 200 200 200 200")));
        t.put("GET /v1/datasets/{id}", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset()),
                row("401 401 403 200 200 404 404")));
        t.put("DELETE /v1/datasets/{id}", new Row(f -> bare("DELETE", "/v1/datasets/" + f.dataset()),
                row("401 401 403 204 403 403 404")));
        t.put("PUT /v1/datasets/{id}/data", new Row(f -> new Call("PUT", "/v1/datasets/" + f.emptyDataset() + "/data",
                "text/csv", "1,2\n".getBytes()), row("401 401 403 200 403 403 404")));
        t.put("POST /v1/datasets/{id}/grants", new Row(f -> json("POST", "/v1/datasets/" + f.dataset() + "/grants",
                "{\"analyst\":\"someone\"}"), row("401 401 403 201 403 403 404")));
        t.put("GET /v1/datasets/{id}/grants", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset() + "/grants"),
                row("401 401 403 200 403 403 404")));
        t.put("DELETE /v1/datasets/{id}/grants/{analyst}", new Row(f -> bare("DELETE",
                "/v1/datasets/" + f.dataset() + "/grants/" + ANALYST), row("401 401 403 204 403 403 404")));
        t.put("POST /v1/datasets/{datasetId}/queries", new Row(f -> json("POST",
                "/v1/datasets/" + f.dataset() + "/queries", QUERY), row("401 401 403 202 202 404 404")));
        t.put("POST /v1/datasets/{datasetId}/queries/quote", new Row(f -> json("POST",
                "/v1/datasets/" + f.dataset() + "/queries/quote", QUERY), row("401 401 403 200 200 404 404")));
        t.put("POST /v1/datasets/{datasetId}/queries/inverse-quote", new Row(f -> json("POST",
                "/v1/datasets/" + f.dataset() + "/queries/inverse-quote", "{\"query\":{\"kind\":\"COLUMN_SUMS\","
                + "\"mechanism\":\"GAUSSIAN\"},\"target\":{\"quantity\":\"columnSums\",\"metric\":"
                + "\"absPerEntry\",\"value\":100,\"level\":0.95}}"), row("401 401 403 200 200 404 404")));
        t.put("POST /v1/datasets/{datasetId}/queries/dry-run", new Row(f -> json("POST",
                "/v1/datasets/" + f.dataset() + "/queries/dry-run", QUERY), row("401 401 403 200 200 404 404")));
        t.put("GET /v1/datasets/{datasetId}/budget", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset() + "/budget"),
                row("401 401 403 200 200 404 404")));
        t.put("GET /v1/datasets/{datasetId}/ledger", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset() + "/ledger"),
                row("401 401 200 200 200 404 404")));
        // The ledger's verification and head: the owner and ADMIN; analysts are refused by role.
        t.put("GET /v1/datasets/{datasetId}/ledger/verify", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset()
                + "/ledger/verify"), row("401 401 200 200 403 403 404")));
        t.put("GET /v1/datasets/{datasetId}/ledger/head", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset()
                + "/ledger/head"), row("401 401 200 200 403 403 404")));
        // Allocations: the owner and ADMIN set them; a granted analyst reads its own (AllocationApiTest
        // checks what each sees). DELETE of a subject without an allocation: 404 once authorised.
        t.put("PUT /v1/datasets/{datasetId}/allocations/{subject}", new Row(f -> json("PUT", "/v1/datasets/"
                + f.dataset() + "/allocations/someone", "{\"rho\":0.001}"), row("401 401 200 200 403 403 404")));
        t.put("GET /v1/datasets/{datasetId}/allocations", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset()
                + "/allocations"), row("401 401 200 200 200 404 404")));
        t.put("DELETE /v1/datasets/{datasetId}/allocations/{subject}", new Row(f -> bare("DELETE", "/v1/datasets/"
                + f.dataset() + "/allocations/nobody"), row("401 401 404 404 403 403 404")));
        // The transparency record follows the ledger's rule (TransparencyApiTest checks the scopes).
        t.put("GET /v1/datasets/{datasetId}/transparency", new Row(f -> bare("GET", "/v1/datasets/" + f.dataset()
                + "/transparency"), row("401 401 200 200 200 404 404")));
        // Everyone with a role lists jobs; each sees its own scope (JobListTest checks the scopes).
        t.put("GET /v1/jobs", new Row(f -> bare("GET", "/v1/jobs"), row("401 401 200 200 200 200 200")));
        t.put("GET /v1/jobs/{id}", new Row(f -> bare("GET", "/v1/jobs/" + f.job()), row("401 401 403 200 200 404 404")));
        t.put("GET /v1/jobs/{id}/result", new Row(f -> bare("GET", "/v1/jobs/" + f.job() + "/result"),
                row("401 401 403 200 200 404 404")));
        // The data owner's per-user rows of a COMPLETION job: analysts are refused by role, another owner
        // sees no job; the fixture job is not a completion, so its owner gets 409.
        t.put("GET /v1/jobs/{id}/predictions", new Row(f -> bare("GET", "/v1/jobs/" + f.job() + "/predictions"),
                row("401 401 403 409 403 403 404")));
        t.put("GET /v1/jobs/{id}/users/{user}/predictions", new Row(f -> bare("GET", "/v1/jobs/" + f.job()
                + "/users/u/predictions"), row("401 401 403 409 403 403 404")));
        t.put("GET /v1/jobs/{id}/user-predictions", new Row(f -> bare("GET", "/v1/jobs/" + f.job()
                + "/user-predictions?index=0"), row("401 401 403 409 403 403 404")));
        t.put("GET /v1/releases/{id}", new Row(f -> bare("GET", "/v1/releases/" + f.release()),
                row("401 401 403 200 404 404 404")));
        t.put("POST /v1/releases/{id}/directional-variance", new Row(f -> json("POST",
                "/v1/releases/" + f.release() + "/directional-variance", "{\"vectors\":[[1,0,0]]}"),
                row("401 401 403 200 404 404 404")));
        t.put("POST /v1/releases/{id}/regression", new Row(f -> json("POST",
                "/v1/releases/" + f.release() + "/regression", "{\"response\":2}"), row("401 401 403 200 404 404 404")));
        t.put("POST /v1/releases/{id}/sparse-pca", new Row(f -> json("POST",
                "/v1/releases/" + f.release() + "/sparse-pca", "{\"s\":1}"), row("401 401 403 200 404 404 404")));
        t.put("POST /v1/releases/{id}/nonnegative-pca", new Row(f -> json("POST",
                "/v1/releases/" + f.release() + "/nonnegative-pca", "{}"), row("401 401 403 200 404 404 404")));
        t.put("POST /v1/releases/{id}/low-rank", new Row(f -> json("POST",
                "/v1/releases/" + f.release() + "/low-rank", "{\"k\":1}"), row("401 401 403 200 404 404 404")));
        t.put("POST /v1/releases/{id}/cuts", new Row(f -> json("POST", "/v1/releases/" + f.release() + "/cuts",
                "{\"sets\":[[\"a\"]]}"), row("401 401 403 409 404 404 404")));
        // Linear queries: strategies are public artifacts (started on a visible dataset, read by anyone);
        // a histogram estimate answers its owner and its submitter like every release.
        t.put("POST /v1/datasets/{datasetId}/strategies", new Row(f -> json("POST", "/v1/datasets/" + f.histogram()
                + "/strategies", "{\"mechanism\":\"OPTIMIZED\",\"params\":{\"workload\":{\"type\":\"IDENTITY\"}}}"),
                row("401 401 403 200 200 404 404")));
        t.put("GET /v1/strategies/{key}", new Row(f -> bare("GET", "/v1/strategies/" + f.strategy()),
                row("401 401 403 200 200 200 200")));
        t.put("POST /v1/releases/{id}/linear-queries", new Row(f -> json("POST", "/v1/releases/" + f.histogramRelease()
                + "/linear-queries", "{\"boxes\":[{}]}"), row("401 401 403 200 404 404 404")));
        // Workloads are public: any owner or analyst uploads, lists its own, reads any; the creator deletes.
        // (Content unique per call: a caller's repeat of the same matrix answers 200 with its workload.)
        t.put("POST /v1/workloads", new Row(f -> new Call("POST", "/v1/workloads", "text/csv",
                ("1," + UNIQUE.incrementAndGet() + "\n").getBytes()),
                row("401 401 403 201 201 201 201")));
        t.put("GET /v1/workloads", new Row(f -> bare("GET", "/v1/workloads"), row("401 401 403 200 200 200 200")));
        t.put("GET /v1/workloads/{id}", new Row(f -> bare("GET", "/v1/workloads/" + f.workload()),
                row("401 401 403 200 200 200 200")));
        t.put("DELETE /v1/workloads/{id}", new Row(f -> bare("DELETE", "/v1/workloads/" + f.workload()),
                row("401 401 403 204 404 404 404")));
        // Streams: the owner appends; the owner or a granted analyst subscribes; a subscription is seen
        // (and cancelled) by its subscriber and the stream's owner.
        t.put("POST /v1/datasets/{id}/rows", new Row(f -> new Call("POST", "/v1/datasets/" + f.stream() + "/rows",
                "text/csv", "0.1,0.2,0.3\n".getBytes()), row("401 401 403 200 403 403 404")));
        t.put("POST /v1/datasets/{datasetId}/subscriptions", new Row(f -> json("POST",
                "/v1/datasets/" + f.stream() + "/subscriptions", SUBSCRIPTION), row("401 401 403 201 201 404 404")));
        t.put("POST /v1/datasets/{datasetId}/subscriptions/quote", new Row(f -> json("POST",
                "/v1/datasets/" + f.stream() + "/subscriptions/quote", SUBSCRIPTION), row("401 401 403 200 200 404 404")));
        t.put("GET /v1/datasets/{datasetId}/subscriptions", new Row(f -> bare("GET",
                "/v1/datasets/" + f.stream() + "/subscriptions"), row("401 401 403 200 200 404 404")));
        t.put("GET /v1/subscriptions/{id}", new Row(f -> bare("GET", "/v1/subscriptions/" + f.subscription()),
                row("401 401 403 200 200 404 404")));
        t.put("DELETE /v1/subscriptions/{id}", new Row(f -> bare("DELETE", "/v1/subscriptions/" + f.subscription()),
                row("401 401 403 200 200 404 404")));
        t.put("GET /v1/subscriptions/{id}/releases", new Row(f -> bare("GET",
                "/v1/subscriptions/" + f.subscription() + "/releases"), row("401 401 403 200 200 404 404")));
        t.put("GET /v1/subscriptions/{id}/releases/{block}", new Row(f -> bare("GET",
                "/v1/subscriptions/" + f.subscription() + "/releases/0"), row("401 401 403 200 200 404 404")));
        // The fixture's job is DONE: visible callers get 409 (already finished), others 404.
        t.put("DELETE /v1/jobs/{id}", new Row(f -> bare("DELETE", "/v1/jobs/" + f.job()),
                row("401 401 403 409 409 404 404")));
        return t;
    }

    private static String[] row(String statuses) {
        return statuses.split(" ");
    }

    private Set<String> enumeratedEndpoints() {
        Set<String> endpoints = new TreeSet<>();
        for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
            if (info.getPathPatternsCondition() == null) {
                continue;
            }
            for (String pattern : info.getPathPatternsCondition().getPatternValues()) {
                if (!pattern.startsWith("/v1/")) {
                    continue; // springdoc and error pages: public or framework endpoints
                }
                Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                assertThat(methods).as("%s must declare its HTTP method", pattern).isNotEmpty();
                for (RequestMethod m : methods) {
                    endpoints.add(m.name() + " " + pattern);
                }
            }
        }
        return endpoints;
    }

    @Test
    void aSubjectKeepsOneRoleAcrossKeys() {
        ownerKey(); // "owner-a" exists as an OWNER
        for (String role : new String[] {"ANALYST", "ADMIN"}) {
            Response r = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/v1/api-keys")).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(
                    "{\"name\":\"impostor\",\"subject\":\"owner-a\",\"role\":\"" + role + "\"}")));
            assertThat(r.status()).as(r.toString()).isEqualTo(409);
            assertThat(r.json().get("type").asString()).endsWith("/subject-role-conflict");
        }
        // A second key of the same role (rotation) is fine.
        assertThat(createKey("owner-a", "OWNER")).startsWith("pm_");
    }

    @Test
    void analystsSeeOnlyTheirOwnLedgerEntries() {
        String dataset = readyMatrix("{\"epsilon\":20,\"delta\":1e-6}", "REPLACE_ONE");
        grant(dataset, ANALYST);
        grant(dataset, "analyst-b");
        for (String key : new String[] {analystKey(), otherAnalystKey(), ownerKey()}) {
            Response r = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
            assertThat(r.status()).as(r.toString()).isEqualTo(202);
        }
        var mine = sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/ledger")).GET()).json();
        assertThat(mine.get("entries").valueStream().map(e -> e.get("caller").asString()).distinct().toList())
                .containsExactly(ANALYST);
        assertThat(mine.get("total").asLong()).isEqualTo(mine.get("entries").size());
        var all = get("/v1/datasets/" + dataset + "/ledger").json();
        assertThat(all.get("entries").valueStream().map(e -> e.get("caller").asString()).distinct().toList())
                .contains(ANALYST, "analyst-b", "owner-a");
    }

    @Test
    void everyEndpointHasARowAndNoRowIsStale() {
        assertThat(new TreeSet<>(table().keySet())).isEqualTo(enumeratedEndpoints());
    }

    @Test
    void everyEndpointTimesEveryCaller() {
        String revoked = createKey("revoked-one", "ANALYST");
        String revokedId = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/v1/api-keys?limit=1000")).GET()).json()
                .valueStream().filter(k -> k.get("subject").asString().equals("revoked-one"))
                .reduce((a, b) -> b).orElseThrow().get("id").asString();
        assertThat(sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/v1/api-keys/" + revokedId)).DELETE()).status())
                .isEqualTo(200);
        Map<Who, String> keys = new LinkedHashMap<>();
        keys.put(Who.NONE, null);
        keys.put(Who.REVOKED, revoked);
        keys.put(Who.ADMIN, ADMIN_KEY);
        keys.put(Who.OWNER, ownerKey());
        keys.put(Who.GRANTED_ANALYST, analystKey());
        keys.put(Who.UNGRANTED_ANALYST, otherAnalystKey());
        keys.put(Who.OTHER_OWNER, otherOwnerKey());
        List<String> failures = new ArrayList<>();
        Fixture shared = fixture();
        for (var entry : table().entrySet()) {
            boolean mutating = !entry.getKey().startsWith("GET ");
            for (Who who : Who.values()) {
                // Reads share one fixture; every mutating call gets fresh ones.
                Fixture fixture = mutating ? fixture() : shared;
                Call call = entry.getValue().call().apply(fixture);
                HttpRequest.Builder b = HttpRequest.newBuilder(uri(call.path()))
                        .method(call.method(), call.body().length == 0 && !"POST".equals(call.method())
                                && !"PUT".equals(call.method()) ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(call.body()));
                if (call.contentType() != null) {
                    b.header("Content-Type", call.contentType());
                }
                Response r = sendAs(keys.get(who), b);
                String expected = entry.getValue().expected()[who.ordinal()];
                if (!expected.equals(Integer.toString(r.status()))) {
                    failures.add(entry.getKey() + " as " + who + ": expected " + expected + " but was " + r);
                }
                if (r.status() >= 400) {
                    assertThat(r.contentType()).as(entry.getKey() + " as " + who).startsWith("application/problem+json");
                }
            }
        }
        assertThat(failures).isEmpty();
    }
}
