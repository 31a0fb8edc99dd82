package io.privmat.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.ledger.jdbc.LedgerRepository;
import io.privmat.support.ApiTest;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * V031 on a ledger written before it (db-migrations/V031__chain_ledger_entry.sql): entries of two
 * datasets, interleaved, with decimals of every scale, JSON in any key order and non-ASCII text, are
 * chained per dataset in id order, and the Java verifier ({@link LedgerChain}) recomputes exactly the
 * hashes the migration stored. An entry inserted afterwards joins its dataset's chain. A fresh
 * database on the tests' PostgreSQL server, migrated step by step.
 */
class LedgerChainMigrationTest extends ApiTest {

    @Autowired
    Environment environment;

    @Test
    void theMigrationChainsEveryDatasetsExistingEntriesInIdOrder() {
        String database = "ledger_backfill_" + Long.toHexString(System.nanoTime());
        jdbc.execute("CREATE DATABASE " + database);
        try {
            String url = environment.getRequiredProperty("spring.datasource.url")
                    .replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1");
            DriverManagerDataSource source = new DriverManagerDataSource(url,
                    environment.getProperty("spring.datasource.username", "postgres"),
                    environment.getProperty("spring.datasource.password", ""));
            Flyway.configure().dataSource(source).locations("classpath:db/migration").target("30").load().migrate();
            JdbcTemplate old = new JdbcTemplate(source);
            UUID a = UUID.randomUUID();
            UUID b = UUID.randomUUID();
            Object[][] rows = {
                {a, "RESERVE", "{\"z\": 1, \"a\": [1.50, 2]}", "0.0010", "0", "1E-7", "analyst-é"},
                {b, "RESERVE", "{}", "0.25", "0.000", "0", "analyst-b"},
                {a, "COMMIT", "{\"z\": 1, \"a\": [1.50, 2]}", "0.0010", "0", "1E-7", "analyst-é"},
                {b, "REFUND", "{}", "0.25", "0.000", "0", "analyst-b"},
                {a, "RESERVE", "{\"note\": \"日本\"}", "12345678901234567890.1234567890123456789", "3", "0", "owner-a"},
            };
            UUID jobA = UUID.randomUUID();
            UUID jobB = UUID.randomUUID();
            for (Object[] r : rows) {
                UUID job = r[0].equals(b) ? jobB : r[2].toString().contains("note") ? UUID.randomUUID() : jobA;
                old.update("INSERT INTO ledger_entry (dataset_id, job_id, entry_type, kind, mechanism, parameters, "
                        + "loss, rho, epsilon, delta, caller, created_at) VALUES (?, ?, ?, 'COLUMN_SUMS', 'GAUSSIAN', "
                        + "?::jsonb, '{\"rho\": 0.0010, \"notion\": \"ZCDP\"}', ?::numeric, ?::numeric, ?::numeric, ?, "
                        + "'2026-01-02 03:04:05.678901+02')", r[0], job, r[1], r[2], r[3], r[4], r[5], r[6]);
            }
            Flyway.configure().dataSource(source).locations("classpath:db/migration").target("33").load().migrate();
            String hashes = "SELECT id, encode(entry_hash, 'hex') AS h FROM ledger_entry ORDER BY id";
            List<java.util.Map<String, Object>> v1 = old.queryForList(hashes);
            Flyway.configure().dataSource(source).locations("classpath:db/migration").load().migrate();
            // V034 (periods, v2 bytes for periodic entries only) leaves every v1 entry's stored hash as it was.
            assertThat(old.queryForList(hashes))
                    .isEqualTo(v1);

            LedgerRepository repository = new LedgerRepository(old);
            assertVerifies(repository, a, 3);
            assertVerifies(repository, b, 2);
            assertThat(old.queryForObject("SELECT count(*) FROM ledger_entry WHERE prev_hash IS NULL", Long.class))
                    .as("one first entry per dataset").isEqualTo(2);
            // Written after the migration (no account: the trigger's advisory lock), it joins the chain.
            old.update("INSERT INTO ledger_entry (dataset_id, job_id, entry_type, kind, mechanism, parameters, loss, "
                    + "rho, epsilon, delta, caller, created_at) SELECT dataset_id, job_id, 'COMMIT', kind, mechanism, "
                    + "parameters, loss, rho, epsilon, delta, caller, now() FROM ledger_entry WHERE dataset_id = ? "
                    + "ORDER BY id DESC LIMIT 1", a);
            assertVerifies(repository, a, 4);
            // A periodic charge (V034): hashed with the v2 tag and its period, in the same chain as v1 entries.
            old.update("INSERT INTO ledger_entry (dataset_id, job_id, entry_type, kind, mechanism, parameters, loss, "
                    + "rho, epsilon, delta, caller, created_at, period) SELECT dataset_id, job_id, 'RESERVE', kind, "
                    + "mechanism, parameters, loss, rho, epsilon, delta, caller, now(), 5 FROM ledger_entry "
                    + "WHERE dataset_id = ? ORDER BY id DESC LIMIT 1", a);
            assertVerifies(repository, a, 5);
        } finally {
            jdbc.execute("DROP DATABASE " + database + " WITH (FORCE)");
        }
    }

    private static void assertVerifies(LedgerRepository repository, UUID dataset, int entries) {
        List<LedgerChain.Chained> chain = repository.chained(dataset, 0, 100);
        LedgerChain.Check check = new LedgerChain.Check(null);
        chain.forEach(check::accept);
        LedgerChain.Result result = check.result(null, null);
        assertThat(result.ok()).as(String.valueOf(result)).isTrue();
        assertThat(result.entries()).isEqualTo(entries);
        assertThat(result.head()).isEqualTo(LedgerChain.hex(chain.get(chain.size() - 1).entryHash()));
        // Not vacuous: the same entries with one amount changed do not verify.
        LedgerChain.Check edited = new LedgerChain.Check(null);
        for (LedgerChain.Chained c : chain) {
            LedgerEntry e = c.entry();
            edited.accept(c == chain.get(0) ? new LedgerChain.Chained(new LedgerEntry(e.id(), e.datasetId(), e.jobId(),
                    e.type(), e.kind(), e.mechanism(), e.parameters(), e.loss(), e.rho().add(java.math.BigDecimal.ONE),
                    e.epsilon(), e.delta(), e.caller(), e.createdAt(), e.period()), c.prevHash(), c.entryHash()) : c);
        }
        assertThat(edited.result(null, null).firstBadEntry()).isEqualTo(chain.get(0).entry().id());
    }
}
