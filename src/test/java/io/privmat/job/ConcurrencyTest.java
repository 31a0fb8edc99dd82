package io.privmat.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.PrivmatApplication;
import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Admission under contention and several replicas on one database (its own database, so that
 * other test contexts' workers stay out).
 */
@TestPropertySource(properties = "privmat.embedded-postgres.database=concurrency")
class ConcurrencyTest extends ApiTest {

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";

    @Test
    void thirtyTwoThreadsExhaustABudgetWithoutOverspending() throws Exception {
        String dataset = readyMatrix("{\"epsilon\":2,\"delta\":1e-6}", "REPLACE_ONE");
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger admitted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ConcurrentLinkedQueue<String> jobIds = new ConcurrentLinkedQueue<>();
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            futures.add(pool.submit(() -> {
                start.await();
                while (true) {
                    Response r = postJson("/v1/datasets/" + dataset + "/queries", QUERY);
                    if (r.status() == 202) {
                        admitted.incrementAndGet();
                        jobIds.add(r.json().get("id").asString());
                    } else {
                        assertThat(r.status()).as(r.toString()).isEqualTo(409);
                        refused.incrementAndGet();
                        return null;
                    }
                }
            }));
        }
        start.countDown();
        for (var f : futures) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertThat(refused.get()).isEqualTo(32);
        // The exact decimals are the ledger's; the API shows them as doubles (README, "Numbers").
        BigDecimal cap = jdbc.queryForObject("SELECT rho_cap FROM budget_account WHERE dataset_id = ?::uuid",
                BigDecimal.class, dataset);
        assertThat(get("/v1/datasets/" + dataset + "/budget").json().get("total").get("tracks").get("rho")
                .decimalValue()).isLessThanOrEqualTo(cap);
        BigDecimal cost = jdbc.queryForObject("SELECT cost_rho FROM job WHERE id = ?::uuid", BigDecimal.class,
                jobIds.peek());
        // Exact decimal accounting: exactly ⌊cap / cost⌋ admissions, no fewer (lost updates) and no more.
        int expected = cap.divide(cost, 0, RoundingMode.FLOOR).intValueExact();
        assertThat(admitted.get()).isEqualTo(expected);
        Map<String, Object> counts = jdbc.queryForMap("SELECT count(*) AS jobs, "
                + "(SELECT count(*) FROM ledger_entry l WHERE l.dataset_id = ?::uuid AND l.entry_type = 'RESERVE') AS reserves, "
                + "(SELECT count(DISTINCT job_id) FROM ledger_entry l WHERE l.dataset_id = ?::uuid AND l.entry_type = 'RESERVE') AS reserved_jobs "
                + "FROM job WHERE dataset_id = ?::uuid", dataset, dataset, dataset);
        assertThat(((Number) counts.get("jobs")).intValue()).isEqualTo(expected);
        assertThat(((Number) counts.get("reserves")).intValue()).isEqualTo(expected);
        assertThat(((Number) counts.get("reserved_jobs")).intValue()).isEqualTo(expected);
        for (String job : jobIds) {
            assertThat(awaitJob(job).get("state").asString()).isEqualTo("DONE");
        }
        JsonNode after = get("/v1/datasets/" + dataset + "/budget").json();
        BigDecimal committed = jdbc.queryForObject("SELECT rho_committed FROM budget_account WHERE dataset_id = "
                + "?::uuid", BigDecimal.class, dataset);
        assertThat(after.get("spent").get("tracks").get("rho").decimalValue()).isGreaterThanOrEqualTo(committed);
        assertThat(committed).isLessThanOrEqualTo(cap);
        assertThat(committed).isEqualByComparingTo(cost.multiply(BigDecimal.valueOf(expected)));
        assertThat(after.get("reserved").get("tracks").get("rho").decimalValue()).isZero();
        assertThat(after.get("spent").get("epsilon").decimalValue()).isLessThanOrEqualTo(new BigDecimal("2"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid AND "
                + "entry_type = 'COMMIT'", Long.class, dataset)).isEqualTo(expected);
        // The concurrent entries form one hash chain of every entry, and the totals are its sums.
        assertChain(dataset, 2L * expected);
    }

    /**
     * The dataset's ledger verifies (docs/accounting.md, "Tamper evidence") as one chain of exactly
     * {@code entries} entries, and no ledger in the database forks.
     */
    private void assertChain(String dataset, long entries) {
        JsonNode v = get("/v1/datasets/" + dataset + "/ledger/verify").json();
        assertThat(v.get("ok").asBoolean()).as(v.toString()).isTrue();
        assertThat(v.get("entries").asLong()).isEqualTo(entries);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class,
                dataset)).isEqualTo(entries);
        io.privmat.support.LedgerInvariants.checkChains(jdbc);
    }

    @Test
    void twoInstancesSharingOneDatabaseNeverRunTheSameJobTwice() throws Exception {
        String dataset = readyMatrix("{\"epsilon\":50,\"delta\":1e-6}", "REPLACE_ONE");
        try (ConfigurableApplicationContext second = new SpringApplicationBuilder(PrivmatApplication.class)
                .properties("server.port=0", "privmat.embedded-postgres.database=concurrency",
                        "privmat.bootstrap-admin-key=" + ADMIN_KEY, "privmat.security.requests-per-second=1000000",
                        "privmat.security.burst=1000000",
                        "spring.main.banner-mode=off")
                .run("--server.port=0")) {
            int otherPort = second.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<String> jobIds = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                int target = i % 2 == 0 ? port : otherPort;
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                                URI.create("http://localhost:" + target + "/v1/datasets/" + dataset + "/queries"))
                        .header("Content-Type", "application/json").header("Authorization", "Bearer " + key()).POST(HttpRequest.BodyPublishers.ofString(QUERY)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
                jobIds.add(JSON.readTree(r.body()).get("id").asString());
            }
            for (String job : jobIds) {
                assertThat(awaitJob(job).get("state").asString()).isEqualTo("DONE");
            }
            List<Map<String, Object>> rows = jdbc.queryForList("SELECT j.attempts, j.lease_owner, "
                    + "(SELECT count(*) FROM ledger_entry l WHERE l.job_id = j.id AND l.entry_type = 'COMMIT') AS commits, "
                    + "(SELECT count(*) FROM job_result r WHERE r.job_id = j.id) AS results "
                    + "FROM job j WHERE j.dataset_id = ?::uuid", dataset);
            assertThat(rows).hasSize(120);
            for (Map<String, Object> row : rows) {
                assertThat(((Number) row.get("attempts")).intValue()).isEqualTo(1);
                assertThat(((Number) row.get("commits")).intValue()).isEqualTo(1);
                assertThat(((Number) row.get("results")).intValue()).isEqualTo(1);
            }
            long owners = rows.stream().map(r -> r.get("lease_owner")).distinct().count();
            assertThat(owners).as("both replicas ran jobs").isEqualTo(2);
            assertChain(dataset, 240);

            // 64 concurrent submissions, half to each replica, while both replicas' workers commit
            // earlier ones: every entry of the dataset still joins one chain (no fork).
            ExecutorService pool = Executors.newFixedThreadPool(16);
            CountDownLatch go = new CountDownLatch(1);
            List<java.util.concurrent.Future<String>> submitted = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int target = i % 2 == 0 ? port : otherPort;
                submitted.add(pool.submit(() -> {
                    go.await();
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                                    URI.create("http://localhost:" + target + "/v1/datasets/" + dataset + "/queries"))
                            .header("Content-Type", "application/json").header("Authorization", "Bearer " + key())
                            .POST(HttpRequest.BodyPublishers.ofString(QUERY)).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
                    return JSON.readTree(r.body()).get("id").asString();
                }));
            }
            go.countDown();
            for (var f : submitted) {
                assertThat(awaitJob(f.get(2, TimeUnit.MINUTES)).get("state").asString()).isEqualTo("DONE");
            }
            pool.shutdown();
            assertChain(dataset, 240 + 2 * 64);

            allocationsHoldUnderSixtyFourSubmissionsOnTwoReplicas(client, otherPort);
        }
    }

    /**
     * Allocations (docs/accounting.md §10) under contention on two replicas: two analysts with
     * allocations (one not a multiple of the cost) and the owner drawing from the pool submit from
     * 64 threads, half to each replica, each until refused. Every analyst gets exactly what its
     * allocation pays and the owner exactly what the pool pays; each refusal names the caller's
     * limit; SQL shows no allocation and no total overspent, and the sums equal.
     */
    private void allocationsHoldUnderSixtyFourSubmissionsOnTwoReplicas(HttpClient client, int otherPort)
            throws Exception {
        String dataset = readyMatrix("{\"epsilon\":2,\"delta\":1e-6}", "REPLACE_ONE");
        String[] subjects = {"owner-a", ANALYST, "analyst-b"};
        String[] keys = {ownerKey(), analystKey(), otherAnalystKey()};
        for (String analyst : new String[] {ANALYST, "analyst-b"}) {
            assertThat(postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + analyst + "\"}").status())
                    .isIn(200, 201);
        }
        // The exact cost of one query, from a first one drawn from the pool by the owner.
        String first = postJson("/v1/datasets/" + dataset + "/queries", QUERY).json().get("id").asString();
        awaitJob(first);
        BigDecimal cost = jdbc.queryForObject("SELECT cost_rho FROM job WHERE id = ?::uuid", BigDecimal.class, first);
        BigDecimal cap = jdbc.queryForObject("SELECT rho_cap FROM budget_account WHERE dataset_id = ?::uuid",
                BigDecimal.class, dataset);
        BigDecimal allocA = cost.multiply(BigDecimal.TEN);
        BigDecimal allocB = cost.multiply(new BigDecimal("15.5"));
        for (int i = 1; i < 3; i++) {
            Response r = send(HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/allocations/" + subjects[i]))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                            "{\"rho\":" + (i == 1 ? allocA : allocB).toPlainString() + "}")));
            assertThat(r.status()).as(r.toString()).isEqualTo(200);
        }
        int expectedA = 10;
        int expectedB = 15;
        // The pool pays while the owner's spending plus the allocations fits the cap; the first query counts.
        int expectedOwner = cap.subtract(allocA).subtract(allocB).divide(cost, 0, RoundingMode.FLOOR).intValueExact();
        assertThat(expectedOwner).isGreaterThan(10);

        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger[] admitted = {new AtomicInteger(1), new AtomicInteger(), new AtomicInteger()};
        ConcurrentLinkedQueue<String> jobIds = new ConcurrentLinkedQueue<>(List.of(first));
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            int target = i % 2 == 0 ? port : otherPort;
            int who = i % 3;
            futures.add(pool.submit(() -> {
                go.await();
                while (true) {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                                    URI.create("http://localhost:" + target + "/v1/datasets/" + dataset + "/queries"))
                            .header("Content-Type", "application/json").header("Authorization", "Bearer " + keys[who])
                            .POST(HttpRequest.BodyPublishers.ofString(QUERY)).build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 202) {
                        admitted[who].incrementAndGet();
                        jobIds.add(JSON.readTree(r.body()).get("id").asString());
                        continue;
                    }
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
                    JsonNode problem = JSON.readTree(r.body());
                    assertThat(problem.get("limit").asString()).as(r.body()).isEqualTo(who == 0 ? "POOL" : "ALLOCATION");
                    return null;
                }
            }));
        }
        go.countDown();
        for (var f : futures) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertThat(admitted[1].get()).as("analyst-a: its allocation's worth").isEqualTo(expectedA);
        assertThat(admitted[2].get()).as("analyst-b: its allocation's worth").isEqualTo(expectedB);
        assertThat(admitted[0].get()).as("the owner: the pool's worth").isEqualTo(expectedOwner);
        for (String job : jobIds) {
            assertThat(awaitJob(job).get("state").asString()).isEqualTo("DONE");
        }
        // SQL: each allocation holds exactly its subject's charges, within its cap; the account holds
        // the allocations' and the pool's charges, within its cap.
        for (int i = 1; i < 3; i++) {
            Map<String, Object> a = jdbc.queryForMap("SELECT rho_cap, rho_spent, (SELECT sum(rho) FROM ledger_entry e "
                    + "WHERE e.dataset_id = a.dataset_id AND e.caller = a.subject AND e.entry_type = 'COMMIT') AS committed "
                    + "FROM budget_allocation a WHERE dataset_id = ?::uuid AND subject = ?", dataset, subjects[i]);
            BigDecimal spent = (BigDecimal) a.get("rho_spent");
            assertThat(spent).isLessThanOrEqualTo((BigDecimal) a.get("rho_cap"));
            assertThat(spent).isEqualByComparingTo(cost.multiply(BigDecimal.valueOf(i == 1 ? expectedA : expectedB)));
            assertThat((BigDecimal) a.get("committed")).isEqualByComparingTo(spent);
        }
        BigDecimal committed = jdbc.queryForObject("SELECT rho_committed FROM budget_account WHERE dataset_id = ?::uuid",
                BigDecimal.class, dataset);
        assertThat(committed).isLessThanOrEqualTo(cap)
                .isEqualByComparingTo(cost.multiply(BigDecimal.valueOf(expectedA + expectedB + expectedOwner)));
        BigDecimal ownerSpent = jdbc.queryForObject("SELECT sum(rho) FROM ledger_entry WHERE dataset_id = ?::uuid "
                + "AND caller = 'owner-a' AND entry_type = 'COMMIT'", BigDecimal.class, dataset);
        assertThat(ownerSpent).isEqualByComparingTo(cost.multiply(BigDecimal.valueOf(expectedOwner)));
        assertThat(ownerSpent.add(cost.multiply(BigDecimal.valueOf(expectedA + expectedB))))
                .isEqualByComparingTo(committed);
        assertThat(ownerSpent.add(allocA).add(allocB)).isLessThanOrEqualTo(cap);
        io.privmat.support.LedgerInvariants.checkAllocations(jdbc);
        assertChain(dataset, 2L * (expectedA + expectedB + expectedOwner));
    }
}
