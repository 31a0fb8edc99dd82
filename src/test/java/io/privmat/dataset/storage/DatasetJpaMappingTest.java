package io.privmat.dataset.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetStatus;
import io.privmat.dataset.HistogramSchema;
import io.privmat.dataset.Neighbouring;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Budget;
import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The JPA mapping of dataset metadata against the Flyway schema: enums by name, exact budget
 * decimals, microsecond times, the jsonb declaration and the text[] labels as stored; and reads
 * that see what JDBC and JPQL updates changed earlier in the same transaction.
 */
class DatasetJpaMappingTest extends ApiTest {

    /** A time with nanoseconds; PostgreSQL keeps microseconds, and so do the entities. */
    private static final Instant WITH_NANOS = Instant.parse("2026-01-02T03:04:05.123456789Z");

    @Autowired
    DatasetRepository repository;

    @Autowired
    TransactionTemplate tx;

    private static Dataset histogram(String owner) {
        HistogramSchema schema = new HistogramSchema(List.of(new HistogramSchema.Attribute("age", 3,
                List.of("young", "mid", "old")), new HistogramSchema.Attribute("bucket", 2, null)));
        return new Dataset(UUID.randomUUID(), "mapping", owner, DatasetKind.HISTOGRAM, Neighbouring.ADD_REMOVE, null,
                DatasetStatus.EMPTY, null, null, null, null, null, null, null,
                new Budget(new BigDecimal("1.50"), new BigDecimal("0.000001"), AccountingMode.BASIC,
                        new BigDecimal("0.25")), WITH_NANOS, null, schema, null, null);
    }

    @Test
    void aDatasetReadsBackAsStoredInAndAfterItsTransaction() {
        Dataset d = histogram("mapping-" + UUID.randomUUID());
        Dataset inTx = tx.execute(status -> {
            repository.insert(d);
            return repository.find(d.id()).orElseThrow();
        });
        Dataset after = repository.find(d.id()).orElseThrow();
        assertThat(inTx).isEqualTo(after);
        assertThat(after.createdAt()).isEqualTo(WITH_NANOS.truncatedTo(ChronoUnit.MICROS));
        assertThat(after.budget()).isEqualTo(d.budget());
        assertThat(after.schema()).isEqualTo(d.schema());
        assertThat(after.rows()).isNull();
        assertThat(after.columnLabels()).isNull();
        Map<String, Object> row = jdbc.queryForMap("SELECT kind, accounting, status, budget_epsilon::text AS eps, "
                + "declaration = ?::jsonb AS same_document FROM dataset WHERE id = ?",
                DatasetRepository.document(d.schema()), d.id());
        assertThat(row).containsEntry("kind", "HISTOGRAM").containsEntry("accounting", "BASIC")
                .containsEntry("status", "EMPTY").containsEntry("eps", "1.50").containsEntry("same_document", true);
    }

    @Test
    void aReadSeesJdbcAndJpqlUpdatesOfTheSameTransactionAndARollbackUndoesAll() {
        Dataset d = histogram("rollback-" + UUID.randomUUID());
        tx.executeWithoutResult(status -> {
            repository.insert(d);
            assertThat(repository.find(d.id()).orElseThrow().status()).isEqualTo(DatasetStatus.EMPTY);
            repository.markReady(d.id(), 1, 6, 4, 0, "CSV", "DENSE", 100, WITH_NANOS);
            repository.setColumnLabels(d.id(), List.of("a", "b\tc"));
            Dataset ready = repository.find(d.id()).orElseThrow();
            assertThat(ready.status()).isEqualTo(DatasetStatus.READY);
            assertThat(ready.uploadedAt()).isEqualTo(WITH_NANOS.truncatedTo(ChronoUnit.MICROS));
            assertThat(ready.columnLabels()).containsExactly("a", "b\tc");
            repository.addRows(d.id(), 5, 2);
            assertThat(repository.find(d.id()).orElseThrow()).extracting(Dataset::rows, Dataset::clippedRows)
                    .containsExactly(6L, 2L);
            assertThat(repository.lockForDelete(d.id()).orElseThrow().rows()).isEqualTo(6L);
            status.setRollbackOnly();
        });
        assertThat(repository.find(d.id())).isEmpty();
    }

    /** The read by id is JDBC (the request path's hot read); it must read every field as the entity does. */
    @Test
    void theReadByIdAgreesWithTheEntityOnEveryField() {
        String owner = "agree-" + UUID.randomUUID();
        Dataset d = histogram(owner);
        repository.insert(d);
        Dataset empty = repository.find(d.id()).orElseThrow();
        assertThat(empty).isEqualTo(repository.listOwned(owner, 0, 10).get(0));
        repository.markReady(d.id(), 7, 6, 42, 3, "CSV", "DENSE", 100, WITH_NANOS);
        repository.setColumnLabels(d.id(), List.of("a", "b\tc", "é"));
        Dataset ready = repository.find(d.id()).orElseThrow();
        assertThat(ready).isEqualTo(repository.listOwned(owner, 0, 10).get(0));
        assertThat(ready).extracting(Dataset::rows, Dataset::cols, Dataset::nnz, Dataset::clippedRows,
                Dataset::sourceFormat, Dataset::storage, Dataset::uploadBytes).containsExactly(7L, 6L, 42L, 3L, "CSV",
                "DENSE", 100L);
        assertThat(ready.schema()).isEqualTo(d.schema());
        assertThat(ready.budget()).isEqualTo(d.budget());
    }

    @Test
    void deletionKeepsTheFirstTombstoneAndPagesFollowCreation() {
        String owner = "pages-" + UUID.randomUUID();
        Dataset first = histogram(owner);
        Dataset second = new Dataset(UUID.randomUUID(), "second", owner, DatasetKind.GRAPH, Neighbouring.ADD_REMOVE,
                null, DatasetStatus.EMPTY, null, null, null, null, null, null, null, first.budget(),
                WITH_NANOS.plusSeconds(1), null, null, null, null);
        repository.insert(second);
        repository.insert(first);
        assertThat(repository.listOwned(owner, 0, 10)).extracting(Dataset::id).containsExactly(first.id(), second.id());
        assertThat(repository.listOwned(owner, 1, 10)).extracting(Dataset::id).containsExactly(second.id());
        assertThat(repository.countOwned(owner)).isEqualTo(2);
        String analyst = "pages-analyst-" + first.id();
        repository.grant(second.id(), analyst, owner, WITH_NANOS);
        assertThat(repository.listGranted(analyst, 0, 10)).extracting(Dataset::id).containsExactly(second.id());

        Boolean deleted = tx.execute(status -> repository.delete(second.id(), owner, WITH_NANOS));
        Boolean again = tx.execute(status -> repository.delete(second.id(), "someone-else", WITH_NANOS));
        assertThat(deleted).isTrue();
        assertThat(again).isFalse();
        assertThat(repository.find(second.id())).isEmpty();
        assertThat(repository.deletedOwner(second.id())).contains(owner);
        assertThat(repository.deletedOwner(first.id())).isEmpty();
        assertThat(repository.listGranted(analyst, 0, 10)).isEmpty();
        assertThat(repository.countOwned(owner)).isOne();
    }
}
