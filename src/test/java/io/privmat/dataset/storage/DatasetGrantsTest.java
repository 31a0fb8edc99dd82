package io.privmat.dataset.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.Grant;
import io.privmat.support.ApiTest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The JPA mapping of grants: composite key, a repeated grant keeps the first, microsecond times. */
class DatasetGrantsTest extends ApiTest {

    @Autowired
    DatasetRepository repository;

    @Test
    void aRepeatedGrantKeepsTheFirstAndRevokeRemovesIt() {
        UUID dataset = UUID.fromString(createMatrix(1));
        String analyst = "grant-mapping-" + dataset;
        Instant first = Instant.parse("2026-01-02T03:04:05.123456789Z");
        assertThat(repository.isGranted(dataset, analyst)).isFalse();
        assertThat(repository.grant(dataset, analyst, "owner-a", first)).isTrue();
        assertThat(repository.grant(dataset, analyst, "owner-b", first.plusSeconds(5))).isFalse();
        assertThat(repository.grant(dataset, analyst + "-2", "owner-a", first.plusSeconds(1))).isTrue();

        assertThat(repository.grants(dataset)).containsExactly(
                new Grant(analyst, "owner-a", Instant.parse("2026-01-02T03:04:05.123456Z")),
                new Grant(analyst + "-2", "owner-a", Instant.parse("2026-01-02T03:04:06.123456Z")));
        assertThat(repository.isGranted(dataset, analyst)).isTrue();
        assertThat(repository.countGranted(analyst)).isOne();

        assertThat(repository.revokeGrant(dataset, analyst)).isTrue();
        assertThat(repository.revokeGrant(dataset, analyst)).isFalse();
        assertThat(repository.isGranted(dataset, analyst)).isFalse();
        assertThat(repository.grants(dataset)).extracting(Grant::analyst).containsExactly(analyst + "-2");
    }
}
