package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/**
 * Every number a client sees in a session (dataset, quote, submission, job, job list, budget,
 * ledger, release, refusal) follows the one rule of README "Numbers": a JSON number in the
 * shortest form that reads back as the same double, and amounts rounded so that a refusal can be
 * reproduced from what was shown (charges up, what remains down).
 */
class NumberFormatApiTest extends ApiTest {

    private static final String GAUSS = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.005}";

    /** The numbers of a response that break the rule, with their JSON text. */
    private static List<String> offending(String where, Response r) {
        List<String> bad = new ArrayList<>();
        try (JsonParser p = JSON.createParser(r.body())) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t != JsonToken.VALUE_NUMBER_FLOAT && t != JsonToken.VALUE_NUMBER_INT) {
                    continue;
                }
                String text = p.getString();
                BigDecimal value = new BigDecimal(text);
                double d = Double.parseDouble(text);
                boolean shortest = value.compareTo(new BigDecimal(Double.toString(d))) == 0;
                if (value.stripTrailingZeros().precision() > 17 || !shortest) {
                    bad.add(where + " " + p.currentName() + "=" + text);
                }
            }
        }
        return bad;
    }

    private Response checked(List<String> bad, String where, Response r) {
        assertThat(r.status()).as(r.toString()).isLessThan(500);
        bad.addAll(offending(where, r));
        return r;
    }

    @Test
    void everyNumberOfASessionIsAShortestDouble() {
        List<String> bad = new ArrayList<>();
        String id = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String ds = "/v1/datasets/" + id;
        checked(bad, "dataset", get(ds));
        JsonNode quote = checked(bad, "quote", postJson(ds + "/queries/quote", GAUSS)).json();
        Response submitted = checked(bad, "submit", postJson(ds + "/queries", GAUSS));
        String jobId = submitted.json().get("id").asString();
        awaitJob(jobId);
        checked(bad, "job", get("/v1/jobs/" + jobId));
        checked(bad, "jobs", get("/v1/jobs?datasetId=" + id));
        checked(bad, "result", get("/v1/jobs/" + jobId + "/result"));
        JsonNode covariance = runQuery(id,
                "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":0.3,\"delta\":1e-7}");
        checked(bad, "release", get("/v1/releases/" + covariance.get("releaseId").asString()));
        JsonNode budget = checked(bad, "budget", get(ds + "/budget")).json();
        checked(bad, "ledger", get(ds + "/ledger"));
        Response refused = checked(bad, "refusal", postJson(ds + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.02}"));

        String pure = postJson("/v1/datasets", "{\"name\":\"p\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":1,\"delta\":0,\"accounting\":\"PURE\"}}").json().get("id").asString();
        put("/v1/datasets/" + pure + "/data", "text/csv", "0.1,0.2\n0.3,0.4\n".getBytes(
                java.nio.charset.StandardCharsets.UTF_8));
        String laplace = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":0.3}";
        checked(bad, "pure quote", postJson("/v1/datasets/" + pure + "/queries/quote", laplace));
        awaitJob(checked(bad, "pure submit", postJson("/v1/datasets/" + pure + "/queries", laplace)).json()
                .get("id").asString());
        checked(bad, "pure budget", get("/v1/datasets/" + pure + "/budget"));
        checked(bad, "pure ledger", get("/v1/datasets/" + pure + "/ledger"));

        assertThat(bad).as("numbers not in shortest double form").isEmpty();

        // Charges are shown rounded up and what remains rounded down, against the exact ledger.
        BigDecimal reserved = jdbc.queryForObject("SELECT rho FROM ledger_entry WHERE job_id = ?::uuid "
                + "AND entry_type = 'RESERVE'", BigDecimal.class, jobId);
        assertThat(quote.get("cost").get("rho").decimalValue()).isGreaterThanOrEqualTo(reserved);
        BigDecimal remaining = jdbc.queryForObject("SELECT rho_cap - rho_committed - rho_reserved FROM budget_account "
                + "WHERE dataset_id = ?::uuid", BigDecimal.class, id);
        assertThat(budget.get("remaining").get("tracks").get("rho").decimalValue()).isLessThanOrEqualTo(remaining);
        // So a refusal shows a charge strictly above what remains.
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("requested").get("rho").doubleValue())
                .isGreaterThan(refused.json().get("remaining").get("rho").doubleValue());
    }
}
