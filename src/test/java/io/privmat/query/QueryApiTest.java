package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.api.JsonNumbers;
import io.privmat.support.ApiTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** Submit → poll → result, quotes, idempotency, refusals and validation, over HTTP. */
class QueryApiTest extends ApiTest {

    private static final String ZCDP = "{\"epsilon\":1,\"delta\":1e-6}";
    private static final String GAUSS_RHO = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}";

    private long entries(String datasetId, String type) {
        return jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid AND entry_type = ?",
                Long.class, datasetId, type);
    }

    @Test
    void columnSumsEndToEnd() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        Response submitted = postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO);
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        String jobId = submitted.json().get("id").asString();
        assertThat(submitted.location()).isEqualTo("/v1/jobs/" + jobId);
        assertThat(submitted.json().get("state").asString()).isIn("QUEUED", "RUNNING", "DONE");
        JsonNode done = awaitJob(jobId);
        assertThat(done.get("state").asString()).isEqualTo("DONE");
        assertThat(done.get("progress").asDouble()).isEqualTo(1.0);
        assertThat(done.get("dataAccessStarted").asBoolean()).isTrue();
        assertThat(done.get("cost").get("rho").decimalValue()).isLessThanOrEqualTo(new java.math.BigDecimal("0.005"));

        JsonNode result = get("/v1/jobs/" + jobId + "/result").json();
        assertThat(result.get("neighbouring").asString()).isEqualTo("ADD_REMOVE");
        // B under ADD_REMOVE (widened by 2^-40 for clipping round-off).
        assertThat(result.get("noise").get("l2Sensitivity").asDouble()).isCloseTo(1.0, within(1e-9))
                .isGreaterThanOrEqualTo(1.0);
        double sigma = result.get("noise").get("sigma").asDouble();
        assertThat(sigma).isCloseTo(1 / Math.sqrt(2 * 0.005), within(0.01));
        double g = result.get("noise").get("granularity").asDouble();
        List<Double> sums = result.get("columnSums").valueStream().map(JsonNode::asDouble).toList();
        assertThat(sums).hasSize(3);
        for (double s : sums) {
            assertThat(s / g).isEqualTo(Math.rint(s / g));
            assertThat(Math.abs(s)).isLessThan(2 + 8 * sigma);
        }
        Response npy = send(java.net.http.HttpRequest.newBuilder(uri("/v1/jobs/" + jobId + "/result"))
                .header("Accept", "application/x-npy").GET());
        assertThat(npy.status()).isEqualTo(200);
        assertThat(npy.contentType()).isEqualTo("application/x-npy");
        ByteBuffer b = ByteBuffer.wrap(npy.body()).order(ByteOrder.LITTLE_ENDIAN);
        int headerLength = b.getShort(8);
        assertThat(new String(npy.body(), 10, headerLength)).contains("'shape': (3,)");
        assertThat(b.getDouble(10 + headerLength + 16)).isEqualTo(sums.get(2));
        // Every result carries its intervals: each sum ± z·σ + g/2 at 95%, containing the estimate.
        JsonNode accuracy = result.get("accuracy");
        assertThat(accuracy.get("level").asDouble()).isEqualTo(0.95);
        JsonNode intervals = accuracy.get("intervals").get(0);
        assertThat(intervals.get("quantity").asString()).isEqualTo("columnSums");
        assertThat(intervals.get("basis").asString()).isEqualTo("EXACT");
        for (int j = 0; j < 3; j++) {
            double lower = intervals.get("lower").get(j).asDouble();
            double upper = intervals.get("upper").get(j).asDouble();
            assertThat(lower).isLessThanOrEqualTo(sums.get(j));
            assertThat(upper).isGreaterThanOrEqualTo(sums.get(j));
            assertThat((upper - lower) / 2).isCloseTo(1.959964 * sigma + g / 2, within(1e-3 * sigma));
        }
        assertThat(entries(id, "RESERVE")).isEqualTo(1);
        assertThat(entries(id, "COMMIT")).isEqualTo(1);
        assertThat(entries(id, "REFUND")).isZero();
    }

    @Test
    void replaceOneDoublesTheSensitivity() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", GAUSS_RHO).json();
        assertThat(quote.get("noise").get("l2Sensitivity").asDouble()).isCloseTo(2.0, within(1e-9))
                .isGreaterThanOrEqualTo(2.0);
        assertThat(quote.get("noise").get("sigma").asDouble()).isCloseTo(2 / Math.sqrt(0.01), within(0.02));
    }

    @Test
    void quoteChargesNothingAndPredictsTheCharge() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", GAUSS_RHO).json();
        assertThat(quote.get("admissible").asBoolean()).isTrue();
        // The quote states the error from public parameters: per-entry RMSE σ and the 95% half-width.
        JsonNode expected = quote.get("expectedError");
        assertThat(expected.get(0).get("metric").asString()).isEqualTo("rmsePerEntry");
        assertThat(expected.get(0).get("value").asDouble()).isEqualTo(quote.get("noise").get("sigma").asDouble());
        assertThat(expected.get(1).get("metric").asString()).isEqualTo("absPerEntry");
        assertThat(expected.get(1).get("level").asDouble()).isEqualTo(0.95);
        assertThat(entries(id, "RESERVE")).isZero();
        JsonNode before = get("/v1/datasets/" + id + "/budget").json();
        assertThat(before.get("spent").get("tracks").get("rho").decimalValue()).isZero();
        JsonNode job = postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO).json();
        assertThat(job.get("cost").get("rho").decimalValue()).isEqualByComparingTo(quote.get("cost").get("rho").decimalValue());
        awaitJob(job.get("id").asString());
        JsonNode after = get("/v1/datasets/" + id + "/budget").json();
        assertThat(after.get("remaining").get("tracks").get("rho").decimalValue())
                .isEqualByComparingTo(quote.get("remainingAfter").get("rho").decimalValue());
        assertThat(after.get("spent").get("epsilon").decimalValue()).isPositive().isLessThan(java.math.BigDecimal.ONE);
    }

    @Test
    void idempotentRetriesReturnTheSameJobAndChargeOnce() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        Response first = postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO, "retry-1");
        Response again = postJson("/v1/datasets/" + id + "/queries",
                "{\"mechanism\":\"GAUSSIAN\",\"rho\":0.0050,\"kind\":\"COLUMN_SUMS\"}", "retry-1");
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.json().get("id").asString()).isEqualTo(first.json().get("id").asString());
        assertThat(entries(id, "RESERVE")).isEqualTo(1);
        Response other = postJson("/v1/datasets/" + id + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.006}", "retry-1");
        assertThat(other.status()).isEqualTo(422);
        assertThat(other.json().get("type").asString()).isEqualTo("https://privmat.io/problems/idempotency-key-reused");
        awaitJob(first.json().get("id").asString());
        String result1 = get("/v1/jobs/" + first.json().get("id").asString() + "/result").text();
        Response later = postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO, "retry-1");
        assertThat(get("/v1/jobs/" + later.json().get("id").asString() + "/result").text()).isEqualTo(result1);
        assertThat(entries(id, "RESERVE")).isEqualTo(1);
    }

    @Test
    void exhaustionIsA409ThatStatesCostRemainingAndMode() {
        String id = readyMatrix("{\"epsilon\":0.5,\"delta\":1e-6}", "REPLACE_ONE");
        int admitted = 0;
        Response refused = null;
        for (int i = 0; i < 100 && refused == null; i++) {
            Response r = postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO);
            if (r.status() == 202) {
                admitted++;
            } else {
                refused = r;
            }
        }
        assertThat(refused).isNotNull();
        assertThat(refused.status()).isEqualTo(409);
        JsonNode p = refused.json();
        assertThat(p.get("type").asString()).isEqualTo("https://privmat.io/problems/budget-exhausted");
        assertThat(p.get("accounting").asString()).isEqualTo("ZCDP");
        assertThat(p.get("requested").get("rho").decimalValue()).isPositive();
        assertThat(p.get("remaining").get("rho").decimalValue()).isLessThan(p.get("requested").get("rho").decimalValue());
        // Without allocations the owner draws from the pool, which is the whole total (docs/accounting.md §10).
        assertThat(p.get("limit").asString()).isEqualTo("POOL");
        assertThat(p.get("totalRemaining")).isEqualTo(p.get("remaining"));
        assertThat(admitted).isEqualTo((int) entries(id, "RESERVE"));
        // ρ_B(0.5, 9e-7) ≈ 0.0073 admits one query of ρ ≈ 0.005.
        assertThat(admitted).isEqualTo(1);
    }

    @Test
    void basicAndPureAccountingChargeInEpsilon() {
        String basic = readyMatrix("{\"epsilon\":1,\"delta\":1e-6,\"accounting\":\"BASIC\"}", "REPLACE_ONE");
        JsonNode job = postJson("/v1/datasets/" + basic + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"epsilon\":0.25,\"delta\":1e-7}").json();
        assertThat(job.get("cost").get("epsilon").decimalValue()).isEqualByComparingTo("0.25");
        // The exact charge 1e-7 is shown as the smallest double at or above it (README, "Numbers").
        assertThat(job.get("cost").get("delta").doubleValue()).isEqualTo(JsonNumbers.charged(new java.math.BigDecimal("1e-7")));
        Response rho = postJson("/v1/datasets/" + basic + "/queries", GAUSS_RHO);
        assertThat(rho.status()).isEqualTo(422);
        assertThat(rho.json().get("type").asString()).isEqualTo("https://privmat.io/problems/incompatible-accounting");

        String pure = readyMatrix("{\"epsilon\":1,\"delta\":0,\"accounting\":\"PURE\"}", "REPLACE_ONE");
        Response gauss = postJson("/v1/datasets/" + pure + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"epsilon\":0.5,\"delta\":1e-7}");
        assertThat(gauss.status()).isEqualTo(422);
        int admitted = 0;
        for (int i = 0; i < 12; i++) {
            if (postJson("/v1/datasets/" + pure + "/queries",
                    "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":0.1}").status() == 202) {
                admitted++;
            }
        }
        assertThat(admitted).isEqualTo(10); // exact decimal sums: 10 × 0.1 = 1
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no kind          | {\"mechanism\":\"GAUSSIAN\",\"rho\":0.01}                                   | kind",
        "unknown kind     | {\"kind\":\"PCA9\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.01}                   | kind",
        "unknown mech     | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"MAGIC\",\"rho\":0.01}               | mechanism",
        "negative rho     | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":-1}              | rho",
        "huge epsilon     | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1000}          | epsilon",
        "delta too big    | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"epsilon\":1,\"delta\":0.5} | delta",
        "no delta         | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"epsilon\":1}            | delta",
        "rho and epsilon  | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.1,\"epsilon\":1,\"delta\":1e-7} | rho",
        "laplace delta    | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1,\"delta\":1e-7} | delta",
        "unexpected param | {\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1,\"params\":{\"k\":3}} | params.k"
    })
    void invalidRequestsNameTheParameterAndChargeNothing(String label, String body, String parameter) {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        Response r = postJson("/v1/datasets/" + id + "/queries", body);
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.json().get("parameter").asString()).isEqualTo(parameter);
        assertThat(entries(id, "RESERVE")).isZero();
    }

    @Test
    void datasetStateAndKindAreChecked() {
        String empty = createMatrix(1);
        Response notReady = postJson("/v1/datasets/" + empty + "/queries", GAUSS_RHO);
        assertThat(notReady.status()).isEqualTo(409);
        assertThat(notReady.json().get("type").asString()).isEqualTo("https://privmat.io/problems/dataset-not-ready");
        String graph = createGraph();
        put("/v1/datasets/" + graph + "/data", "text/csv", "a,b\n".getBytes());
        assertThat(postJson("/v1/datasets/" + graph + "/queries", GAUSS_RHO).json().get("type").asString())
                .isEqualTo("https://privmat.io/problems/wrong-dataset-kind");
        assertThat(postJson("/v1/datasets/" + java.util.UUID.randomUUID() + "/queries", GAUSS_RHO).status())
                .isEqualTo(404);
        assertThat(get("/v1/jobs/" + java.util.UUID.randomUUID()).status()).isEqualTo(404);
    }

    @Test
    void ledgerIsPagedAndAppendOnly() {
        String id = readyMatrix("{\"epsilon\":5,\"delta\":1e-6}", "REPLACE_ONE");
        for (int i = 0; i < 3; i++) {
            awaitJob(postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO).json().get("id").asString());
        }
        JsonNode page = get("/v1/datasets/" + id + "/ledger?limit=4").json();
        assertThat(page.get("total").asLong()).isEqualTo(6);
        assertThat(page.get("entries")).hasSize(4);
        long next = page.get("next").asLong();
        JsonNode rest = get("/v1/datasets/" + id + "/ledger?limit=4&after=" + next).json();
        assertThat(rest.get("entries")).hasSize(2);
        assertThat(rest.get("next").isNull()).isTrue();
        assertThat(get("/v1/datasets/" + id + "/ledger?limit=0").status()).isEqualTo(400);
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                jdbc.update("UPDATE ledger_entry SET rho = 0 WHERE dataset_id = ?::uuid", id))
                .hasMessageContaining("append-only");
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                jdbc.update("DELETE FROM ledger_entry WHERE dataset_id = ?::uuid", id))
                .hasMessageContaining("append-only");
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                jdbc.update("UPDATE budget_account SET rho_committed = rho_cap * 2 WHERE dataset_id = ?::uuid", id))
                .hasMessageContaining("within_rho_cap");
        // Deleting the dataset keeps its ledger (the privacy record).
        delete("/v1/datasets/" + id);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class, id))
                .isEqualTo(6);
    }

    @Test
    void cancellingAFinishedJobIsAConflict() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        String job = postJson("/v1/datasets/" + id + "/queries", GAUSS_RHO).json().get("id").asString();
        awaitJob(job);
        Response r = delete("/v1/jobs/" + job);
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.json().get("type").asString()).isEqualTo("https://privmat.io/problems/job-already-finished");
    }
}
