package io.privmat.bench;

import io.privmat.support.ApiTest;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The cost of durable commits: small single-row transactions (the size of a ledger RESERVE plus a
 * job row) with {@code synchronous_commit} on (the service's setting) and off (zonky's default).
 * Run: {@code ./mvnw test -Pbenchmark -Dtest=SynchronousCommitBenchmark}.
 */
@Tag("benchmark")
class SynchronousCommitBenchmark extends ApiTest {

    @Autowired
    TransactionTemplate tx;

    @Test
    void commitLatency() {
        jdbc.execute("CREATE TABLE IF NOT EXISTS bench_commit (id bigserial PRIMARY KEY, payload text)");
        for (String mode : new String[] {"on", "off", "on", "off"}) {
            int n = 500;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                tx.executeWithoutResult(s -> {
                    jdbc.execute("SET LOCAL synchronous_commit = " + mode);
                    jdbc.update("INSERT INTO bench_commit (payload) VALUES (?)", "x".repeat(300));
                });
            }
            double ms = (System.nanoTime() - start) / 1e6 / n;
            System.out.printf(Locale.ROOT, "synchronous_commit=%s: %.3f ms per commit (%d commits)%n", mode, ms, n);
        }
        jdbc.execute("DROP TABLE bench_commit");
    }
}
