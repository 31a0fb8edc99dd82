package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * What the ledger's hash chain costs (docs/accounting.md, "Tamper evidence"): the insert time per
 * entry with the chaining trigger (account lock again, head lookup, SHA-256) against the same
 * inserts with triggers off (a constant hash stored instead), in alternating rounds; and the time
 * of a verification per entry. Run: {@code ./mvnw test -Pbenchmark -Dtest=LedgerChainBenchmark};
 * {@code -Dprivmat.bench.entries=…} sets the entries per round (20000).
 */
@Tag("benchmark")
@TestPropertySource(properties = "privmat.embedded-postgres.database=bench_ledger_chain")
class LedgerChainBenchmark extends ApiTest {

    @Autowired
    TransactionTemplate tx;

    /** Inserts {@code entries} RESERVE/REFUND pairs (net zero: the totals stay right) and returns seconds. */
    private double insert(String dataset, int entries, boolean chained) {
        long t0 = System.nanoTime();
        tx.executeWithoutResult(s -> {
            jdbc.queryForObject("SELECT 1 FROM budget_account WHERE dataset_id = ?::uuid FOR UPDATE", Integer.class,
                    dataset);
            if (!chained) {
                jdbc.execute("SET LOCAL session_replication_role = replica");
            }
            jdbc.update("""
                    INSERT INTO ledger_entry (dataset_id, job_id, entry_type, kind, mechanism, parameters, loss, rho,
                        epsilon, delta, caller, created_at, entry_hash)
                    SELECT ?::uuid, j.job, t.type, 'COLUMN_SUMS', 'GAUSSIAN', '{"rho": 0.001, "clip": 1}',
                        '{"notion": "ZCDP", "rho": 0.001}', 0.001, 0, 0, 'owner-a', now(), decode(repeat('00', 32), 'hex')
                    FROM (SELECT gen_random_uuid() AS job, g FROM generate_series(1, ?) g) j
                    CROSS JOIN (VALUES ('RESERVE', 1), ('REFUND', 2)) t(type, o)
                    ORDER BY j.g, t.o""", dataset, entries / 2);
        });
        return (System.nanoTime() - t0) / 1e9;
    }

    @Test
    void chainCost() throws Exception {
        int entries = Integer.getInteger("privmat.bench.entries", 20_000);
        String chained = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        String plain = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        for (String d : new String[] {chained, plain}) {
            assertThat(get("/v1/datasets/" + d + "/budget").status()).isEqualTo(200);
        }
        insert(chained, 2000, true);
        insert(plain, 2000, false);
        StringBuilder report = new StringBuilder();
        double on = 0;
        double off = 0;
        int rounds = 3;
        for (int r = 0; r < rounds; r++) {
            on += insert(chained, entries, true);
            off += insert(plain, entries, false);
        }
        double perOn = on * 1e6 / (rounds * entries);
        double perOff = off * 1e6 / (rounds * entries);
        report.append(String.format(Locale.ROOT, "insert, %d rounds of %d entries in one statement: chained %.1f us "
                        + "per entry, unchained %.1f us per entry; the chain adds %.1f us per entry%n", rounds, entries,
                perOn, perOff, perOn - perOff));
        long total = jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class,
                chained);
        get("/v1/datasets/" + chained + "/ledger/verify");
        long t0 = System.nanoTime();
        JsonNode v = get("/v1/datasets/" + chained + "/ledger/verify").json();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(v.get("ok").asBoolean()).as(v.toString()).isTrue();
        assertThat(v.get("entries").asLong()).isEqualTo(total);
        report.append(String.format(Locale.ROOT, "verify, %d entries: %.2f s, %.1f us per entry%n", total, seconds,
                seconds * 1e6 / total));
        System.out.println(report);
        Path out = Path.of("target/benchmarks/ledger-chain.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }
}
