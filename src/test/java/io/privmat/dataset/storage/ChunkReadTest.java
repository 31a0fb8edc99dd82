package io.privmat.dataset.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Chunk reads are server-side prepared (hence binary bytea) from their first execution on a
 * connection, not from pgJDBC's fifth (docs/benchmarks.md, "Cold start").
 */
class ChunkReadTest extends ApiTest {

    @Autowired
    org.springframework.core.env.Environment environment;

    @Test
    void chunkReadsArePreparedOnTheServerFromTheFirstExecution() {
        UUID id = UUID.fromString(readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE"));
        for (int round = 0; round < 3; round++) {
            // A new physical connection each round, as after a start or a pool renewal.
            SingleConnectionDataSource connection = new SingleConnectionDataSource(
                    environment.getRequiredProperty("spring.datasource.url"),
                    environment.getRequiredProperty("spring.datasource.username"),
                    environment.getProperty("spring.datasource.password", ""), true);
            JdbcTemplate jdbc = new JdbcTemplate(connection);
            DatasetRepository repository = new DatasetRepository(jdbc, connection);
            TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(connection));
            tx.executeWithoutResult(status -> {
                AtomicInteger rows = new AtomicInteger();
                repository.streamMatrixChunks(id, 3, chunk -> rows.addAndGet(chunk.rowCount()));
                assertThat(rows.get()).isEqualTo(4);
                Integer prepared = jdbc.queryForObject(
                        "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%FROM data_chunk%'",
                        Integer.class);
                assertThat(prepared).as("chunk read prepared on the server at its first execution").isEqualTo(1);
            });
            connection.destroy();
        }
    }
}
