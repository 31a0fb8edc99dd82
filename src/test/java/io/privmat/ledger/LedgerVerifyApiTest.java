package io.privmat.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The ledger's hash chain (docs/accounting.md, "Tamper evidence"): an untouched ledger verifies; one
 * edited directly in SQL — an amount changed, an entry deleted, two entries swapped, the account's
 * totals changed — fails at the edited entry; a chain recomputed by someone with database write
 * access passes on its own and fails against a head exported before. Its own database: the edits
 * would break the ledger invariants other test classes check on the whole database.
 */
@TestPropertySource(properties = "privmat.embedded-postgres.database=ledgerchain")
class LedgerVerifyApiTest extends ApiTest {

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";

    @Autowired
    TransactionTemplate tx;

    /** A dataset with {@code jobs} finished queries: a RESERVE and a COMMIT entry each. */
    private String ledgerOf(int jobs) {
        String dataset = readyMatrix("{\"epsilon\":10,\"delta\":1e-6}", "REPLACE_ONE");
        for (int i = 0; i < jobs; i++) {
            runQuery(dataset, QUERY);
        }
        return dataset;
    }

    private List<Long> ids(String dataset) {
        return jdbc.queryForList("SELECT id FROM ledger_entry WHERE dataset_id = ?::uuid ORDER BY id", Long.class,
                dataset);
    }

    private JsonNode verify(String dataset) {
        Response r = get("/v1/datasets/" + dataset + "/ledger/verify");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        return r.json();
    }

    /** Runs SQL as someone with write access to the database would: the ledger's triggers off. */
    private void tamper(String sql, Object... args) {
        tx.executeWithoutResult(s -> {
            jdbc.execute("SET LOCAL session_replication_role = replica");
            jdbc.update(sql, args);
        });
    }

    @Test
    void anUntouchedLedgerVerifiesAndItsHeadIsTheLastEntrysHash() {
        String dataset = ledgerOf(3);
        List<Long> ids = ids(dataset);
        assertThat(ids).hasSize(6);
        JsonNode v = verify(dataset);
        assertThat(v.get("ok").asBoolean()).as(v.toString()).isTrue();
        assertThat(v.get("entries").asLong()).isEqualTo(6);
        assertThat(v.get("firstBadEntry").isNull()).isTrue();
        assertThat(v.get("reason").isNull()).isTrue();
        assertThat(v.get("totalsChecked").asBoolean()).isTrue();
        assertThat(v.get("headEntry").asLong()).isEqualTo(ids.get(5));
        String stored = jdbc.queryForObject("SELECT encode(entry_hash, 'hex') FROM ledger_entry WHERE id = ?",
                String.class, ids.get(5));
        assertThat(v.get("head").asString()).isEqualTo(stored).hasSize(64);
        JsonNode head = get("/v1/datasets/" + dataset + "/ledger/head").json();
        assertThat(head.get("head").asString()).isEqualTo(stored);
        assertThat(head.get("headEntry").asLong()).isEqualTo(ids.get(5));
        // One chain: the first entry has no predecessor, each other names the one before it.
        assertThat(jdbc.queryForObject("SELECT count(*) FROM (SELECT prev_hash IS NOT DISTINCT FROM "
                + "lag(entry_hash) OVER (ORDER BY id) AS linked FROM ledger_entry WHERE dataset_id = ?::uuid) l "
                + "WHERE linked", Long.class, dataset)).isEqualTo(6);
        // The exported head stays in the chain as the ledger grows.
        runQuery(dataset, QUERY);
        JsonNode later = get("/v1/datasets/" + dataset + "/ledger/verify?head=" + stored).json();
        assertThat(later.get("ok").asBoolean()).as(later.toString()).isTrue();
        assertThat(later.get("entries").asLong()).isEqualTo(8);
        assertThat(later.get("head").asString()).isNotEqualTo(stored);
    }

    @Test
    void anEditedAmountFailsAtTheEditedEntry() {
        String dataset = ledgerOf(3);
        List<Long> ids = ids(dataset);
        tamper("UPDATE ledger_entry SET rho = rho / 2 WHERE id = ?", ids.get(2));
        JsonNode v = verify(dataset);
        assertThat(v.get("ok").asBoolean()).isFalse();
        assertThat(v.get("firstBadEntry").asLong()).isEqualTo(ids.get(2));
        assertThat(v.get("reason").asString()).contains("entry " + ids.get(2)).contains("edited");
        assertThat(v.get("entries").asLong()).isEqualTo(6);
    }

    @Test
    void anEditedJsonDocumentOrTimeFailsAtTheEditedEntry() {
        String dataset = ledgerOf(2);
        List<Long> ids = ids(dataset);
        tamper("UPDATE ledger_entry SET created_at = created_at + interval '1 microsecond' WHERE id = ?", ids.get(3));
        assertThat(verify(dataset).get("firstBadEntry").asLong()).isEqualTo(ids.get(3));
        String other = ledgerOf(2);
        List<Long> otherIds = ids(other);
        tamper("UPDATE ledger_entry SET loss = jsonb_set(loss, '{rho}', '0.0001') WHERE id = ?", otherIds.get(1));
        assertThat(verify(other).get("firstBadEntry").asLong()).isEqualTo(otherIds.get(1));
    }

    @Test
    void aDeletedEntryFailsAtTheEntryAfterIt() {
        String dataset = ledgerOf(3);
        List<Long> ids = ids(dataset);
        tamper("DELETE FROM ledger_entry WHERE id = ?", ids.get(2));
        JsonNode v = verify(dataset);
        assertThat(v.get("ok").asBoolean()).isFalse();
        assertThat(v.get("firstBadEntry").asLong()).isEqualTo(ids.get(3));
        assertThat(v.get("reason").asString()).contains("deleted");
        assertThat(v.get("entries").asLong()).isEqualTo(5);
        // Deleting the first entry: the new first entry names a predecessor.
        String other = ledgerOf(1);
        List<Long> otherIds = ids(other);
        tamper("DELETE FROM ledger_entry WHERE id = ?", otherIds.get(0));
        assertThat(verify(other).get("firstBadEntry").asLong()).isEqualTo(otherIds.get(1));
    }

    @Test
    void reorderedEntriesFailAtTheFirstMovedOne() {
        String dataset = ledgerOf(3);
        List<Long> ids = ids(dataset);
        long a = ids.get(1);
        long b = ids.get(2);
        tx.executeWithoutResult(s -> {
            jdbc.execute("SET LOCAL session_replication_role = replica");
            jdbc.update("UPDATE ledger_entry SET id = -id WHERE id = ?", a);
            jdbc.update("UPDATE ledger_entry SET id = ? WHERE id = ?", a, b);
            jdbc.update("UPDATE ledger_entry SET id = ? WHERE id = ?", b, -a);
        });
        JsonNode v = verify(dataset);
        assertThat(v.get("ok").asBoolean()).isFalse();
        assertThat(v.get("firstBadEntry").asLong()).isEqualTo(a);
        assertThat(v.get("entries").asLong()).isEqualTo(6);
    }

    @Test
    void totalsThatAreNotTheSumsOfTheEntriesFail() {
        String dataset = ledgerOf(2);
        jdbc.update("UPDATE budget_account SET rho_committed = rho_committed - 0.0001 WHERE dataset_id = ?::uuid",
                dataset);
        JsonNode v = verify(dataset);
        assertThat(v.get("ok").asBoolean()).isFalse();
        assertThat(v.get("firstBadEntry").isNull()).as("the chain itself is intact").isTrue();
        assertThat(v.get("reason").asString()).contains("totals");
        jdbc.update("UPDATE budget_account SET rho_committed = rho_committed + 0.0001 WHERE dataset_id = ?::uuid",
                dataset);
        assertThat(verify(dataset).get("ok").asBoolean()).isTrue();
    }

    @Test
    void aRecomputedChainPassesAloneAndFailsAgainstAnExportedHead() {
        String dataset = ledgerOf(2);
        List<Long> ids = ids(dataset);
        String exported = get("/v1/datasets/" + dataset + "/ledger/head").json().get("head").asString();
        // Someone with write access edits an amount and re-chains every entry from there on, with
        // the database's own hash function, and fixes the account's totals to match.
        tx.executeWithoutResult(s -> {
            jdbc.execute("SET LOCAL session_replication_role = replica");
            jdbc.update("UPDATE ledger_entry SET rho = rho / 2 WHERE job_id = (SELECT job_id FROM ledger_entry "
                    + "WHERE id = ?)", ids.get(0));
            jdbc.update("UPDATE budget_account SET rho_committed = (SELECT sum(rho) FROM ledger_entry WHERE "
                    + "dataset_id = ?::uuid AND entry_type = 'COMMIT') WHERE dataset_id = ?::uuid", dataset, dataset);
            jdbc.execute("""
                    DO $$
                    DECLARE e record; prev bytea; h bytea;
                    BEGIN
                        FOR e IN SELECT * FROM ledger_entry WHERE dataset_id = '%s' ORDER BY id LOOP
                            h := ledger_entry_hash(prev, e.id, e.dataset_id, e.job_id, e.entry_type, e.kind,
                                    e.mechanism, e.parameters, e.loss, e.rho, e.epsilon, e.delta, e.caller, e.created_at);
                            UPDATE ledger_entry SET prev_hash = prev, entry_hash = h WHERE id = e.id;
                            prev := h;
                        END LOOP;
                    END $$""".formatted(dataset));
        });
        JsonNode alone = verify(dataset);
        assertThat(alone.get("ok").asBoolean()).as("a consistent rewrite is not detectable from the database alone: " + alone)
                .isTrue();
        JsonNode against = get("/v1/datasets/" + dataset + "/ledger/verify?head=" + exported.toUpperCase()).json();
        assertThat(against.get("ok").asBoolean()).isFalse();
        assertThat(against.get("reason").asString()).contains("exported head");
        assertThat(against.get("firstBadEntry").isNull()).isTrue();
    }

    @Test
    void theDatabaseRefusesAnEntryNumberedBeforeTheHead() {
        String dataset = ledgerOf(1);
        assertThatThrownBy(() -> jdbc.update("INSERT INTO ledger_entry (id, dataset_id, job_id, entry_type, kind, "
                + "mechanism, parameters, loss, rho, epsilon, delta, caller, created_at) SELECT -7, dataset_id, job_id, "
                + "'REFUND', kind, mechanism, parameters, loss, rho, epsilon, delta, caller, now() FROM ledger_entry "
                + "WHERE dataset_id = ?::uuid AND entry_type = 'RESERVE'", dataset))
                .hasMessageContaining("numbered before");
        assertThat(verify(dataset).get("ok").asBoolean()).isTrue();
    }

    @Test
    void onlyTheOwnerAndAdminMayVerifyAndBadInputIsAProblem() {
        String dataset = ledgerOf(1);
        assertThat(postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isIn(200, 201);
        for (String path : List.of("/ledger/verify", "/ledger/head")) {
            String url = "/v1/datasets/" + dataset + path;
            assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri(url)).GET()).status()).as(path).isEqualTo(403);
            assertThat(sendAs(otherAnalystKey(), HttpRequest.newBuilder(uri(url)).GET()).status()).isEqualTo(403);
            assertThat(sendAs(otherOwnerKey(), HttpRequest.newBuilder(uri(url)).GET()).status()).isEqualTo(404);
            Response admin = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri(url)).GET());
            assertThat(admin.status()).as(admin.toString()).isEqualTo(200);
        }
        for (String bad : List.of("abc", "zz" + "0".repeat(62), "0".repeat(65))) {
            Response r = get("/v1/datasets/" + dataset + "/ledger/verify?head=" + bad);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.json().get("parameter").asString()).isEqualTo("head");
        }
        assertThat(get("/v1/datasets/" + java.util.UUID.randomUUID() + "/ledger/verify").status()).isEqualTo(404);
        // After deletion the owner still verifies the ledger; the account is gone, so no totals.
        assertThat(delete("/v1/datasets/" + dataset).status()).isEqualTo(204);
        JsonNode v = verify(dataset);
        assertThat(v.get("ok").asBoolean()).as(v.toString()).isTrue();
        assertThat(v.get("entries").asLong()).isEqualTo(2);
        assertThat(v.get("totalsChecked").asBoolean()).isFalse();
    }
}
