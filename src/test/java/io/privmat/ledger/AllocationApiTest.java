package io.privmat.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.DatasetService;
import io.privmat.privacy.Budget;
import io.privmat.privacy.Tracks;
import io.privmat.privacy.Zcdp;
import io.privmat.support.ApiTest;
import io.privmat.support.LedgerInvariants;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Allocations (docs/accounting.md §10): the owner raises and lowers them (never below what was
 * spent, never beyond the pool), queries are refused by the limit that applies — the analyst's
 * allocation, or the pool for an analyst without one — and the refusal and the quote name it; an
 * analyst sees its own allocation only.
 */
class AllocationApiTest extends ApiTest {

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";

    private Response putAllocation(String apiKey, String dataset, String subject, String body) {
        return sendAs(apiKey, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/allocations/" + subject))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    private Response submit(String apiKey, String dataset) {
        return sendAs(apiKey, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
    }

    private Response quote(String apiKey, String dataset) {
        return sendAs(apiKey, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries/quote"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
    }

    private Response allocations(String apiKey, String dataset) {
        return sendAs(apiKey, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/allocations")).GET());
    }

    /** A ZCDP dataset granted to both analysts. */
    private String dataset() {
        String dataset = readyMatrix("{\"epsilon\":2,\"delta\":1e-6}", "REPLACE_ONE");
        for (String analyst : new String[] {ANALYST, "analyst-b"}) {
            assertThat(postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + analyst + "\"}").status())
                    .isEqualTo(201);
        }
        return dataset;
    }

    /** The exact cost of one query: the analyst runs one (from the pool) and the job's cost is read. */
    private BigDecimal firstQueryCost(String dataset) {
        Response r = submit(analystKey(), dataset);
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        String job = r.json().get("id").asString();
        awaitJob(job);
        return jdbc.queryForObject("SELECT cost_rho FROM job WHERE id = ?::uuid", BigDecimal.class, job);
    }

    @Test
    void anAllocationPaysItsAnalystsQueriesAndIsRaisedButNeverLoweredBelowWhatWasSpent() {
        String dataset = dataset();
        BigDecimal c = firstQueryCost(dataset);
        // The spending before the allocation counts against it: 3c pays two more queries.
        Response set = putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":" + c.multiply(BigDecimal.valueOf(3))
                .toPlainString() + "}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().get("subject").asString()).isEqualTo(ANALYST);
        // Shown as a double rounded up (README, "Numbers").
        assertThat(set.json().get("spent").get("rho").asDouble()).isGreaterThanOrEqualTo(c.doubleValue());
        assertThat(set.json().get("allocated").hasNonNull("epsilon")).isFalse();
        for (int i = 0; i < 2; i++) {
            Response r = submit(analystKey(), dataset);
            assertThat(r.status()).as(r.toString()).isEqualTo(202);
            awaitJob(r.json().get("id").asString());
        }
        JsonNode q = quote(analystKey(), dataset).json();
        assertThat(q.get("limit").asString()).isEqualTo("ALLOCATION");
        assertThat(q.get("admissible").asBoolean()).isFalse();
        assertThat(q.get("limitRemaining").get("rho").asDouble()).isLessThan(c.doubleValue());
        assertThat(q.get("remaining").get("rho").asDouble()).isGreaterThan(10 * c.doubleValue());

        Response refused = submit(analystKey(), dataset);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        JsonNode p = refused.json();
        assertThat(p.get("type").asString()).endsWith("/budget-exhausted");
        assertThat(p.get("limit").asString()).isEqualTo("ALLOCATION");
        assertThat(p.get("detail").asString()).contains("allocation");
        assertThat(p.get("remaining").get("rho").asDouble()).isLessThan(c.doubleValue());
        assertThat(p.get("totalRemaining").get("rho").asDouble()).isGreaterThan(10 * c.doubleValue());

        // Lowered below what was spent (3c): refused, nothing changed.
        Response lower = putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":" + c.multiply(new BigDecimal("2.5"))
                .toPlainString() + "}");
        assertThat(lower.status()).as(lower.toString()).isEqualTo(409);
        assertThat(lower.json().get("type").asString()).endsWith("/allocation-conflict");
        assertThat(lower.json().get("spent").get("rho").asDouble()).isGreaterThanOrEqualTo(c.multiply(
                BigDecimal.valueOf(3)).doubleValue());
        assertThat(jdbc.queryForObject("SELECT rho_cap FROM budget_allocation WHERE dataset_id = ?::uuid AND subject = ?",
                BigDecimal.class, dataset, ANALYST)).isEqualByComparingTo(c.multiply(BigDecimal.valueOf(3)));
        // Raised from the pool: one more query.
        assertThat(putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":" + c.multiply(BigDecimal.valueOf(4))
                .toPlainString() + "}").status()).isEqualTo(200);
        Response more = submit(analystKey(), dataset);
        assertThat(more.status()).as(more.toString()).isEqualTo(202);
        awaitJob(more.json().get("id").asString());
        assertThat(submit(analystKey(), dataset).json().get("limit").asString()).isEqualTo("ALLOCATION");
        // Lowered to exactly what was spent: allowed.
        assertThat(putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":" + c.multiply(BigDecimal.valueOf(4))
                .toPlainString() + "}").status()).isEqualTo(200);
        // Beyond what the pool can pay: refused, with the largest it can be now.
        Response tooMuch = putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":1000}");
        assertThat(tooMuch.status()).as(tooMuch.toString()).isEqualTo(409);
        double largest = tooMuch.json().get("largest").get("rho").asDouble();
        BigDecimal cap = jdbc.queryForObject("SELECT rho_cap FROM budget_account WHERE dataset_id = ?::uuid",
                BigDecimal.class, dataset);
        assertThat(largest).isLessThanOrEqualTo(cap.doubleValue()).isGreaterThan(cap.doubleValue() / 2);
        assertThat(putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":" + largest + "}").status()).isEqualTo(200);
        LedgerInvariants.checkAllocations(jdbc);
    }

    @Test
    void anAnalystWithoutAnAllocationIsRefusedByThePoolWhileTheTotalStillHasRoom() {
        String dataset = dataset();
        BigDecimal c = firstQueryCost(dataset);
        BigDecimal cap = jdbc.queryForObject("SELECT rho_cap FROM budget_account WHERE dataset_id = ?::uuid",
                BigDecimal.class, dataset);
        // analyst-a (spent c) gets everything but half a query's worth: the pool cannot pay analyst-b.
        BigDecimal all = cap.subtract(c.multiply(new BigDecimal("0.5")));
        assertThat(putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":" + all.toPlainString() + "}").status())
                .isEqualTo(200);
        JsonNode q = quote(otherAnalystKey(), dataset).json();
        assertThat(q.get("limit").asString()).isEqualTo("POOL");
        assertThat(q.get("admissible").asBoolean()).isFalse();
        Response refused = submit(otherAnalystKey(), dataset);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("limit").asString()).isEqualTo("POOL");
        assertThat(refused.json().get("detail").asString()).contains("unallocated pool");
        assertThat(refused.json().get("totalRemaining").get("rho").asDouble()).isGreaterThan(c.doubleValue());
        // The owner draws from the same pool.
        assertThat(submit(ownerKey(), dataset).json().get("limit").asString()).isEqualTo("POOL");
        // analyst-a's allocation pays it.
        Response ok = submit(analystKey(), dataset);
        assertThat(ok.status()).as(ok.toString()).isEqualTo(202);
        awaitJob(ok.json().get("id").asString());
        // Removing the allocation returns analyst-a to the pool with its spending: the pool is what
        // the total leaves, and pays analyst-b again.
        assertThat(sendAs(ownerKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/allocations/"
                + ANALYST)).DELETE()).status()).isEqualTo(204);
        assertThat(sendAs(ownerKey(), HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/allocations/"
                + ANALYST)).DELETE()).status()).isEqualTo(404);
        Response b = submit(otherAnalystKey(), dataset);
        assertThat(b.status()).as(b.toString()).isEqualTo(202);
        awaitJob(b.json().get("id").asString());
        LedgerInvariants.checkAllocations(jdbc);
    }

    @Test
    void anAnalystSeesItsOwnAllocationOnlyAndNeverAnotherAnalystsSpending() {
        String dataset = dataset();
        firstQueryCost(dataset);
        assertThat(putAllocation(ownerKey(), dataset, ANALYST, "{\"rho\":0.01}").status()).isEqualTo(200);
        assertThat(putAllocation(ownerKey(), dataset, "analyst-c", "{\"rho\":0.002,\"delta\":0}").status())
                .isEqualTo(200);

        JsonNode owner = allocations(ownerKey(), dataset).json();
        assertThat(owner.get("allocations")).hasSize(2);
        assertThat(owner.get("allocated").get("rho").asDouble()).isCloseTo(0.012, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(owner.hasNonNull("poolRemaining")).isTrue();
        assertThat(allocations(ADMIN_KEY, dataset).json().get("allocations")).hasSize(2);

        Response own = allocations(analystKey(), dataset);
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.json().get("yourLimit").asString()).isEqualTo("ALLOCATION");
        assertThat(own.json().get("allocations")).hasSize(1);
        assertThat(own.json().get("allocations").get(0).get("subject").asString()).isEqualTo(ANALYST);
        assertThat(own.json().hasNonNull("allocated")).isFalse();
        assertThat(own.json().hasNonNull("poolRemaining")).isFalse();
        assertThat(own.text()).doesNotContain("analyst-c");

        Response other = allocations(otherAnalystKey(), dataset);
        assertThat(other.json().get("yourLimit").asString()).isEqualTo("POOL");
        assertThat(other.json().get("allocations")).isEmpty();
        assertThat(other.json().hasNonNull("poolRemaining")).isTrue();
        assertThat(other.text()).doesNotContain(ANALYST).doesNotContain("analyst-c");

        // Only the owner and ADMIN set allocations; another owner does not see the dataset.
        assertThat(putAllocation(analystKey(), dataset, ANALYST, "{\"rho\":1}").status()).isEqualTo(403);
        assertThat(putAllocation(otherOwnerKey(), dataset, ANALYST, "{\"rho\":1}").status()).isEqualTo(404);
        assertThat(allocations(otherOwnerKey(), dataset).status()).isEqualTo(404);
        assertThat(putAllocation(ADMIN_KEY, dataset, "analyst-c", "{\"rho\":0.003}").status()).isEqualTo(200);
    }

    @Autowired
    BudgetService budget;

    @Autowired
    DatasetService datasets;

    @Autowired
    TransactionTemplate tx;

    /**
     * A group commit (query.Admissions batches submissions of one dataset into one reserveAll) checks
     * each item against its own caller's allocation with the batch's earlier items counted, and
     * unallocated callers against the pool likewise: no batch lets an analyst overspend.
     */
    @Test
    void oneBatchChecksEachItemAgainstItsCallersAllocationWithTheBatchsEarlierItemsCounted() {
        String id = dataset();
        UUID datasetId = UUID.fromString(id);
        Budget b = datasets.get(datasetId).budget();
        Tracks c = b.filter().cost(Zcdp.of(1e-4));
        Tracks cap = b.filter().capacity();
        BigDecimal a = cap.rho().subtract(c.rho().multiply(BigDecimal.valueOf(5)));
        assertThat(putAllocation(ownerKey(), id, ANALYST, "{\"rho\":" + a.toPlainString() + "}").status()).isEqualTo(200);
        assertThat(putAllocation(ownerKey(), id, "analyst-b", "{\"rho\":" + c.rho().toPlainString() + "}").status())
                .isEqualTo(200);
        // The pool is now 4c. analyst-a may spend a = cap − 5c: give it three; analyst-b one of two;
        // the owner (no allocation) four of five.
        String[] callers = {"owner-a", ANALYST, "analyst-b", "owner-a", ANALYST, "analyst-b", "owner-a", ANALYST,
            "owner-a", "owner-a"};
        List<Reservation> batch = Arrays.stream(callers).map(who -> new Reservation(datasetId, b,
                UUID.randomUUID(), "TEST", "TEST", "{}", Zcdp.of(1e-4),
                "{\"notion\":\"zCDP\",\"rho\":0.0001}", who)).toList();
        List<BudgetService.Admission> outcomes = tx.execute(s -> {
            List<BudgetService.Admission> o = budget.reserveAll(datasetId, b, batch);
            assertThat(jdbc.queryForObject("SELECT rho_spent FROM budget_allocation WHERE dataset_id = ? AND subject = ?",
                    BigDecimal.class, datasetId, ANALYST)).isEqualByComparingTo(c.rho().multiply(BigDecimal.valueOf(3)));
            assertThat(jdbc.queryForObject("SELECT rho_spent FROM budget_allocation WHERE dataset_id = ? AND subject = ?",
                    BigDecimal.class, datasetId, "analyst-b")).isEqualByComparingTo(c.rho());
            // Nothing of it stays: these reservations have no jobs.
            s.setRollbackOnly();
            return o;
        });
        List<String> seen = outcomes.stream().map(o -> o.admitted() ? "ok" : o.refusal().limit().name()).toList();
        assertThat(seen).containsExactly("ok", "ok", "ok", "ok", "ok", "ALLOCATION", "ok", "ok", "ok", "POOL");
    }

    @Test
    void badAllocationsAreProblemsWithNothingStored() {
        String dataset = dataset();
        String[][] bad = {{"{\"rho\":-1}", "rho"}, {"{\"epsilon\":0.1}", "epsilon"},
            {"{\"rho\":0.1234567890123456789012345678901234567890123}", "rho"}, {"{\"rho\":\"x\"}", null},
            {"not json", null}, {"{\"rho\":1e999999}", null}};
        for (String[] b : bad) {
            Response r = putAllocation(ownerKey(), dataset, ANALYST, b[0]);
            assertThat(r.status()).as(b[0] + " " + r).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            if (b[1] != null) {
                assertThat(r.json().get("parameter").asString()).as(r.toString()).isEqualTo(b[1]);
            }
        }
        Response longName = putAllocation(ownerKey(), dataset, "x".repeat(201), "{\"rho\":0.001}");
        assertThat(longName.status()).as(longName.toString()).isEqualTo(400);
        assertThat(putAllocation(ownerKey(), "00000000-0000-0000-0000-000000000000", ANALYST, "{\"rho\":0.001}")
                .status()).isEqualTo(404);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM budget_allocation WHERE dataset_id = ?::uuid", Long.class,
                dataset)).isZero();
    }
}
