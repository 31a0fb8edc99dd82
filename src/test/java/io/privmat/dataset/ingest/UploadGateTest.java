package io.privmat.dataset.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.unit.DataSize;

/** The upload gate admits at most its limit, closes on stop, and opens again on a restart. */
class UploadGateTest {

    private static IngestSettings settings(int limit) {
        return new IngestSettings(DataSize.ofGigabytes(2), DataSize.ofMegabytes(4), 100_000, DataSize.ofGigabytes(2), 4,
                limit, DataSize.ofMegabytes(1), Duration.ofMinutes(15), DataSize.ofKilobytes(64), Duration.ofSeconds(10),
                Duration.ofMillis(100), 20_000_000);
    }

    private static ProblemType refusal(UploadGate gate) {
        try {
            gate.enter().close();
            return null;
        } catch (PrivmatException e) {
            return e.type();
        }
    }

    @Test
    void admitsUpToItsLimitClosesOnStopAndOpensAgainOnStart() throws Exception {
        UploadGate gate = new UploadGate(settings(2), new DriverManagerDataSource());
        gate.start();
        try (UploadGate.Permit a = gate.enter(); UploadGate.Permit b = gate.enter()) {
            assertThat(gate.inProgress()).isEqualTo(2);
            assertThatThrownBy(gate::enter).isInstanceOfSatisfying(PrivmatException.class, e -> {
                assertThat(e.type()).isEqualTo(ProblemType.TOO_MANY_UPLOADS);
                assertThat(e.properties().get("retryAfterSeconds")).isEqualTo(5L);
            });
        }
        assertThat(gate.inProgress()).isZero();
        gate.stop();
        assertThat(refusal(gate)).isEqualTo(ProblemType.SERVICE_UNAVAILABLE);
        gate.start();
        assertThat(refusal(gate)).isNull();
    }

    @Test
    void anUploadStillInProgressAfterTheShutdownGraceIsAborted() throws Exception {
        UploadGate gate = new UploadGate(settings(2), new DriverManagerDataSource());
        gate.start();
        UploadGate.Permit stuck = gate.enter();
        assertThat(gate.aborting()).isFalse();
        Thread stopper = new Thread(gate::stop);
        stopper.start();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!gate.aborting() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(gate.aborting()).as("aborting after the 100 ms grace").isTrue();
        stuck.close();
        stopper.join(5_000);
        assertThat(stopper.isAlive()).isFalse();
    }

    @Test
    void theLimitMustBeBelowThePoolSize() {
        com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource();
        pool.setMaximumPoolSize(4);
        assertThatThrownBy(() -> new UploadGate(settings(4), pool)).hasMessageContaining("must be below");
    }
}
