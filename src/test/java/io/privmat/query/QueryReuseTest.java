package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Repeat answers (docs/accounting.md, "Repeat answers"): {@code reuse: true} answers with an earlier
 * DONE job of the same canonical plan on the same data version that the caller may see, charging
 * nothing; budgets and ledger counts checked in SQL.
 */
class QueryReuseTest extends ApiTest {

    private static final String ZCDP = "{\"epsilon\":1,\"delta\":1e-6}";
    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005";
    private static final String REUSE = QUERY + ",\"reuse\":true}";
    /** The same canonical plan written differently: keys reordered, the budget's decimal with a trailing zero. */
    private static final String REUSE_REWRITTEN = "{\"reuse\":true,\"rho\":0.0050,\"mechanism\":\"GAUSSIAN\","
            + "\"kind\":\"COLUMN_SUMS\"}";

    private long ledgerEntries(String datasetId) {
        return jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class,
                datasetId);
    }

    /** Committed and reserved rho (the dataset's accounting is ZCDP). */
    private BigDecimal spentRho(String datasetId) {
        return jdbc.queryForObject("SELECT rho_committed + rho_reserved FROM budget_account WHERE dataset_id = ?::uuid",
                BigDecimal.class, datasetId);
    }

    private BigDecimal remainingRho(String datasetId) {
        return jdbc.queryForObject("SELECT rho_cap - rho_committed - rho_reserved FROM budget_account "
                + "WHERE dataset_id = ?::uuid", BigDecimal.class, datasetId);
    }

    private long jobs(String datasetId) {
        return jdbc.queryForObject("SELECT count(*) FROM job WHERE dataset_id = ?::uuid", Long.class, datasetId);
    }

    private Response submitAs(String apiKey, String datasetId, String body) {
        return sendAs(apiKey, HttpRequest.newBuilder(uri("/v1/datasets/" + datasetId + "/queries"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    /** Submits, expects a new admitted job (202), waits until DONE; its id. */
    private String runNew(String apiKey, String datasetId, String body) {
        Response r = submitAs(apiKey, datasetId, body);
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        assertThat(r.header("Reused-From")).isNull();
        String jobId = r.json().get("id").asString();
        JsonNode done = awaitJob(jobId);
        assertThat(done.get("state").asString()).as(done.toString()).isEqualTo("DONE");
        return jobId;
    }

    private String result(String jobId) {
        return get("/v1/jobs/" + jobId + "/result").json().get("columnSums").toString();
    }

    private void grant(String datasetId, String analyst) {
        assertThat(postJson("/v1/datasets/" + datasetId + "/grants", "{\"analyst\":\"" + analyst + "\"}").status())
                .isEqualTo(201);
    }

    @Test
    void aRepeatWithReuseReturnsTheSameReleaseAndChargesNothing() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        String first = runNew(key(), id, REUSE);
        long entries = ledgerEntries(id);
        BigDecimal spent = spentRho(id);
        BigDecimal remaining = remainingRho(id);
        assertThat(entries).isEqualTo(2); // RESERVE and COMMIT
        assertThat(spent).isPositive();

        Response again = submitAs(key(), id, REUSE_REWRITTEN);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat(again.header("Reused-From")).isEqualTo(first);
        assertThat(again.location()).isEqualTo("/v1/jobs/" + first);
        assertThat(again.json().get("id").asString()).isEqualTo(first);
        assertThat(again.json().get("state").asString()).isEqualTo("DONE");
        assertThat(result(again.json().get("id").asString())).isEqualTo(result(first));
        assertThat(ledgerEntries(id)).isEqualTo(entries);
        assertThat(spentRho(id)).isEqualByComparingTo(spent);
        assertThat(remainingRho(id)).isEqualByComparingTo(remaining);
        assertThat(get("/v1/datasets/" + id + "/budget").json().get("remaining").get("tracks").get("rho")
                .decimalValue()).isPositive();
        assertThat(jobs(id)).isEqualTo(1);

        // Another plan (another budget) is not the same question: a new job, charged.
        String other = runNew(key(), id, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.004,"
                + "\"reuse\":true}");
        assertThat(other).isNotEqualTo(first);
        assertThat(ledgerEntries(id)).isEqualTo(entries + 2);
    }

    @Test
    void withoutReuseTheSameQueryIsChargedTwice() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        String first = runNew(key(), id, QUERY + "}");
        BigDecimal once = spentRho(id);
        String second = runNew(key(), id, QUERY + ",\"reuse\":false}");
        assertThat(second).isNotEqualTo(first);
        assertThat(ledgerEntries(id)).isEqualTo(4);
        assertThat(spentRho(id)).isEqualByComparingTo(once.add(once));
        assertThat(result(second)).isNotEqualTo(result(first)); // fresh noise
    }

    @Test
    void aChangeOfTheDatasetsRowMakesEarlierAnswersStale() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        String first = runNew(key(), id, REUSE);
        long version = jdbc.queryForObject("SELECT data_version FROM dataset WHERE id = ?::uuid", Long.class, id);
        assertThat(jdbc.queryForObject("SELECT data_version FROM job WHERE id = ?::uuid", Long.class, first))
                .isEqualTo(version);
        // No endpoint changes a READY matrix (data is uploaded once); any change of its row, as a future
        // replacement or facts edit would make, bumps the version in its own statement (the trigger).
        jdbc.update("UPDATE dataset SET uploaded_at = uploaded_at + interval '1 second' WHERE id = ?::uuid", id);
        assertThat(jdbc.queryForObject("SELECT data_version FROM dataset WHERE id = ?::uuid", Long.class, id))
                .isEqualTo(version + 1);
        long entries = ledgerEntries(id);
        String second = runNew(key(), id, REUSE);
        assertThat(second).isNotEqualTo(first);
        assertThat(ledgerEntries(id)).isEqualTo(entries + 2);
        assertThat(result(second)).isNotEqualTo(result(first));
        // And the new answer is the one reused from now on.
        Response third = submitAs(key(), id, REUSE);
        assertThat(third.status()).isEqualTo(200);
        assertThat(third.header("Reused-From")).isEqualTo(second);
    }

    @Test
    void aStreamAppendBumpsTheDataVersion() {
        Response r = postJson("/v1/datasets", "{\"name\":\"s\",\"kind\":\"STREAM\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"stream\":{\"columns\":3,\"blockRows\":4,\"windowBlocks\":2,"
                + "\"horizonBlocks\":6},\"budget\":" + ZCDP + "}");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        String id = r.json().get("id").asString();
        long before = jdbc.queryForObject("SELECT data_version FROM dataset WHERE id = ?::uuid", Long.class, id);
        Response appended = send(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/rows"))
                .header("Content-Type", "text/csv").POST(HttpRequest.BodyPublishers.ofString("0.1,0.2,0.3\n")));
        assertThat(appended.status()).as(appended.toString()).isLessThan(300);
        assertThat(jdbc.queryForObject("SELECT data_version FROM dataset WHERE id = ?::uuid", Long.class, id))
                .isGreaterThan(before);
    }

    @Test
    void onlyAnswersTheCallerCouldAlreadySeeAreReused() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        grant(id, ANALYST);
        grant(id, "analyst-b");
        String analysts = runNew(analystKey(), id, REUSE);
        long entries = ledgerEntries(id);

        // Another analyst cannot see analyst-a's job: a new job, charged.
        String others = runNew(otherAnalystKey(), id, REUSE);
        assertThat(others).isNotEqualTo(analysts);
        assertThat(ledgerEntries(id)).isEqualTo(entries + 2);
        assertThat(submitAs(otherAnalystKey(), id, REUSE).header("Reused-From")).isEqualTo(others);

        // The dataset's owner sees every job on it: reused, nothing charged.
        Response owner = submitAs(ownerKey(), id, REUSE);
        assertThat(owner.status()).isEqualTo(200);
        assertThat(owner.header("Reused-From")).isIn(analysts, others);
        assertThat(ledgerEntries(id)).isEqualTo(entries + 2);

        // An owner's own job is not visible to an analyst on another plan of theirs.
        String body = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.003,\"reuse\":true}";
        String ownersJob = runNew(ownerKey(), id, body);
        String analystsOwn = runNew(analystKey(), id, body);
        assertThat(analystsOwn).isNotEqualTo(ownersJob);
        assertThat(submitAs(analystKey(), id, body).header("Reused-From")).isEqualTo(analystsOwn);
    }

    @Test
    void failedAndCancelledJobsAreNotReused() {
        String id = readyMatrix("{\"epsilon\":5,\"delta\":1e-6}", "ADD_REMOVE"); // room for six charges
        for (String state : new String[] {"FAILED", "CANCELLED", "RUNNING"}) {
            String earlier = runNew(key(), id, REUSE);
            // The earlier job's state as the worker or a cancellation would leave it (RUNNING: an
            // identical request in flight is not waited for; a concurrent repeat is charged again).
            jdbc.update("UPDATE job SET state = ? WHERE id = ?::uuid", state, earlier);
            long entries = ledgerEntries(id);
            String next = runNew(key(), id, REUSE);
            assertThat(next).isNotEqualTo(earlier);
            assertThat(ledgerEntries(id)).isEqualTo(entries + 2);
            jdbc.update("UPDATE job SET state = 'FAILED' WHERE id = ?::uuid", next);
        }
    }

    @Test
    void aReuseRequestOnADeletedDatasetIsRefusedLikeAnyQuery() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        String first = runNew(key(), id, REUSE);
        assertThat(delete("/v1/datasets/" + id).status()).isLessThan(300);
        Response after = submitAs(key(), id, REUSE);
        assertThat(after.status()).as(after.toString()).isIn(404, 410);
        assertThat(after.contentType()).startsWith("application/problem+json");
        assertThat(after.header("Reused-From")).isNull();
        assertThat(get("/v1/jobs/" + first).status()).isEqualTo(404);
        assertThat(jobs(id)).isZero();
    }
}
