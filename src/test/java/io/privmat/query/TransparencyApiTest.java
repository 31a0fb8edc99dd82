package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * The transparency record (docs/accounting.md, "Transparency record"): every committed charge of a
 * dataset with its losses, the totals equal to the ledger's sums (checked in SQL), the registry YAML,
 * who sees what, and the paging bounds.
 */
class TransparencyApiTest extends ApiTest {

    private static final String LAPLACE = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":0.3}";
    private static final String GAUSSIAN = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";
    private static final String JL = "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":1,\"delta\":5e-7}";

    private Response transparency(String key, String dataset, String query, String accept) {
        return sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/transparency" + query))
                .header("Accept", accept).GET());
    }

    private String threeMechanisms() {
        // δ_B = 10⁻⁵: a tenth of it (10⁻⁶) is the approximate track the JL sketch's δ is charged to.
        String dataset = readyMatrix("{\"epsilon\":20,\"delta\":1e-5}", "REPLACE_ONE");
        runQuery(dataset, LAPLACE);
        runQuery(dataset, GAUSSIAN);
        runQuery(dataset, JL);
        return dataset;
    }

    @Test
    void eachReleaseShowsItsLossesAndTheTotalsAreTheLedgers() {
        String dataset = threeMechanisms();
        Response r = transparency(ownerKey(), dataset, "", "application/json");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode t = r.json();
        assertThat(t.get("privacyUnit").asString()).isEqualTo("row");
        assertThat(t.get("relation").asString()).isEqualTo("REPLACE_ONE");
        assertThat(t.get("total").asLong()).isEqualTo(3);
        assertThat(t.get("next").isNull()).isTrue();
        JsonNode releases = t.get("releases");
        assertThat(releases.valueStream().map(e -> e.get("mechanism").asString()).toList())
                .containsExactly("LAPLACE", "GAUSSIAN", "JL");
        assertThat(releases.valueStream().map(e -> e.get("loss").get("mechanism").get("notion").asString()).toList())
                .containsExactly("pure-DP", "Gaussian", "approx-DP");
        // Each release is its ledger's COMMIT entry, charged exactly that entry's amounts.
        List<Map<String, Object>> commits = jdbc.queryForList("SELECT id, job_id::text AS job, rho, delta FROM "
                + "ledger_entry WHERE dataset_id = ?::uuid AND entry_type = 'COMMIT' ORDER BY id", dataset);
        assertThat(commits).hasSize(3);
        for (int i = 0; i < 3; i++) {
            JsonNode e = releases.get(i);
            assertThat(e.get("entry").asLong()).isEqualTo(((Number) commits.get(i).get("id")).longValue());
            assertThat(e.get("jobId").asString()).isEqualTo(commits.get(i).get("job"));
            assertThat(e.get("charged").get("rho").asDouble())
                    .isCloseTo(((BigDecimal) commits.get(i).get("rho")).doubleValue(), within(1e-15));
            assertThat(e.get("charged").get("delta").asDouble())
                    .isCloseTo(((BigDecimal) commits.get(i).get("delta")).doubleValue(), within(1e-21));
            assertThat(e.get("guarantee").get("epsilon").asDouble()).isPositive();
            assertThat(e.get("expectedError").size()).as(e.toString()).isPositive();
            assertThat(e.get("analyst").asString()).isEqualTo("owner-a");
            assertThat(e.get("releaseType").asString()).isEqualTo("one-shot");
            assertThat(e.get("admittedAt").isNull()).isFalse();
        }
        // The pure ε query is charged ε²/2 on the ρ track; the (ε, δ) sketch ε²/2 and its δ.
        assertThat(releases.get(0).get("charged").get("rho").asDouble()).isCloseTo(0.045, within(1e-12));
        assertThat(releases.get(0).get("charged").get("delta").asDouble()).isZero();
        assertThat(releases.get(2).get("charged").get("rho").asDouble()).isCloseTo(0.5, within(1e-12));
        assertThat(releases.get(2).get("charged").get("delta").asDouble()).isCloseTo(5e-7, within(1e-18));
        // The totals are the ledger's: the account's committed column and the sum of the COMMIT entries.
        Map<String, Object> sums = jdbc.queryForMap("SELECT sum(rho) AS rho, sum(delta) AS delta FROM ledger_entry "
                + "WHERE dataset_id = ?::uuid AND entry_type = 'COMMIT'", dataset);
        BigDecimal committed = jdbc.queryForObject("SELECT rho_committed FROM budget_account WHERE dataset_id = "
                + "?::uuid", BigDecimal.class, dataset);
        assertThat(((BigDecimal) sums.get("rho")).compareTo(committed)).isZero();
        JsonNode totals = t.get("totals");
        assertThat(totals.get("accounting").asString()).isEqualTo("ZCDP");
        assertThat(totals.get("spent").get("rho").asDouble()).isCloseTo(committed.doubleValue(), within(1e-15));
        assertThat(totals.get("spent").get("delta").asDouble())
                .isCloseTo(((BigDecimal) sums.get("delta")).doubleValue(), within(1e-21));
        assertThat(totals.get("spent").get("rho").asDouble()).isCloseTo(releases.valueStream()
                .mapToDouble(e -> e.get("charged").get("rho").asDouble()).sum(), within(1e-12));
        // The same totals as /budget.
        JsonNode b = get("/v1/datasets/" + dataset + "/budget").json();
        assertThat(totals.get("spent").get("rho").asDouble()).isEqualTo(b.get("spent").get("tracks").get("rho").asDouble());
        assertThat(totals.get("remaining").get("rho").asDouble())
                .isEqualTo(b.get("remaining").get("tracks").get("rho").asDouble());
        assertThat(totals.get("spentGuarantee").get("epsilon").asDouble())
                .isEqualTo(b.get("spent").get("epsilon").asDouble());
    }

    @Test
    void theRegistryYamlParsesAndHasTheRegistryFields() {
        String dataset = threeMechanisms();
        Response r = transparency(ownerKey(), dataset, "", "application/yaml");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/yaml");
        Map<String, Object> doc = new Yaml().load(r.text());
        assertThat(doc).containsKeys("privacyUnit", "privacyLoss", "accounting", "mechanisms", "releaseType",
                "accessType", "releases");
        @SuppressWarnings("unchecked")
        Map<String, Object> unit = (Map<String, Object>) doc.get("privacyUnit");
        assertThat(unit).containsEntry("unit", "row").containsEntry("relation", "REPLACE_ONE");
        assertThat(doc.get("accounting")).isEqualTo("ZCDP");
        assertThat(doc.get("mechanisms")).isEqualTo(List.of("LAPLACE", "GAUSSIAN", "JL"));
        assertThat(doc.get("releaseType")).isEqualTo(List.of("one-shot"));
        @SuppressWarnings("unchecked")
        Map<String, Object> loss = (Map<String, Object>) doc.get("privacyLoss");
        assertThat(((Number) loss.get("epsilon")).doubleValue()).isEqualTo(20.0);
        assertThat(((Number) loss.get("delta")).doubleValue()).isEqualTo(1e-5);
        assertThat(loss).containsKeys("budget", "spent", "remaining");
        assertThat((List<?>) doc.get("releases")).hasSize(3);
    }

    @Test
    void analystsSeeTheirOwnReleasesOnlyAndStrangersNothing() {
        String dataset = readyMatrix("{\"epsilon\":20,\"delta\":1e-6}", "REPLACE_ONE");
        for (String analyst : new String[] {ANALYST, "analyst-b"}) {
            assertThat(postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + analyst + "\"}").status())
                    .isEqualTo(201);
        }
        for (String key : new String[] {analystKey(), otherAnalystKey(), ownerKey()}) {
            Response q = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(GAUSSIAN)));
            assertThat(q.status()).as(q.toString()).isEqualTo(202);
            awaitJob(q.json().get("id").asString());
        }
        JsonNode mine = transparency(analystKey(), dataset, "", "application/json").json();
        assertThat(mine.get("releases").valueStream().map(e -> e.get("analyst").asString()).toList())
                .containsExactly(ANALYST);
        assertThat(mine.get("total").asLong()).isEqualTo(1);
        JsonNode owner = transparency(ownerKey(), dataset, "", "application/json").json();
        assertThat(owner.get("releases").valueStream().map(e -> e.get("analyst").asString()).toList())
                .containsExactlyInAnyOrder(ANALYST, "analyst-b", "owner-a");
        // The totals stay dataset-wide for everyone, as /budget shows them.
        assertThat(mine.get("totals")).isEqualTo(owner.get("totals"));
        JsonNode admin = transparency(ADMIN_KEY, dataset, "", "application/json").json();
        assertThat(admin.get("total").asLong()).isEqualTo(3);
        String stranger = createKey("analyst-c", "ANALYST");
        assertThat(transparency(stranger, dataset, "", "application/json").status()).isEqualTo(404);
        assertThat(transparency(otherOwnerKey(), dataset, "", "application/json").status()).isEqualTo(404);
        assertThat(transparency(stranger, dataset, "", "application/yaml").status()).isEqualTo(404);
    }

    @Test
    void pagesAreBoundedAndBadPagingIsAProblem() {
        String dataset = readyMatrix("{\"epsilon\":20,\"delta\":1e-6}", "REPLACE_ONE");
        for (int i = 0; i < 3; i++) {
            runQuery(dataset, GAUSSIAN);
        }
        JsonNode first = transparency(ownerKey(), dataset, "?limit=2", "application/json").json();
        assertThat(first.get("releases").size()).isEqualTo(2);
        assertThat(first.get("total").asLong()).isEqualTo(3);
        long next = first.get("next").asLong();
        assertThat(next).isEqualTo(first.get("releases").get(1).get("entry").asLong());
        JsonNode second = transparency(ownerKey(), dataset, "?limit=2&after=" + next, "application/json").json();
        assertThat(second.get("releases").size()).isEqualTo(1);
        assertThat(second.get("next").isNull()).isTrue();
        assertThat(second.get("releases").get(0).get("entry").asLong()).isGreaterThan(next);
        for (String bad : new String[] {"?limit=0", "?limit=101", "?after=-1", "?limit=abc"}) {
            Response r = transparency(ownerKey(), dataset, bad, "application/json");
            assertThat(r.status()).as(bad + " " + r).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
        }
        Response yaml = transparency(ownerKey(), dataset, "?limit=101", "application/yaml");
        assertThat(yaml.status()).as(yaml.toString()).isEqualTo(400);
        assertThat(transparency(ownerKey(), dataset, "?limit=100", "application/json").status()).isEqualTo(200);
    }
}
