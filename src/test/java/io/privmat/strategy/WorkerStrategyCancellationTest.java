package io.privmat.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.support.FairUseApiTest;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Review of issue 36, F2: a worker rebuilding a paid job's plan needs a strategy whose computation is
 * cancelled at its time limit (2 s here) — its own, or another caller's background run it waits for.
 * That is the job's planned failure STRATEGY_FAILED (QueryJobHandler turns it into a failure before
 * data access, refunded), never a CancellationException escaping the job to the lease reaper.
 */
class WorkerStrategyCancellationTest extends FairUseApiTest {

    @Autowired
    StrategyService strategies;

    /** A task that never finishes: it stops only when its control cancels it. */
    private static PublicArtifacts.StrategyTask endless() {
        byte[] id = new byte[32];
        ThreadLocalRandom.current().nextBytes(id);
        String key = HexFormat.of().formatHex(id);
        return new PublicArtifacts.StrategyTask(key, "test/" + key, "OPTIMIZED", false,
                new PublicArtifacts.TaskInfo("OPTIMIZED", key, null, null, 1, 1, "", null, 8), control -> {
                    while (!control.cancelled().getAsBoolean()) {
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            break;
                        }
                    }
                    throw new CancellationException("strategy optimisation cancelled");
                });
    }

    private static void assertStrategyFailed(Throwable thrown) {
        assertThat(thrown).isInstanceOf(PlanningException.class);
        PlanningException p = (PlanningException) thrown;
        assertThat(p.reason()).isEqualTo(PlanningException.Reason.STRATEGY_FAILED);
        assertThat(p.properties().get("reason")).isEqualTo("TIME_LIMIT");
    }

    @Test
    void aWorkersOwnComputationCancelledAtItsLimitIsStrategyFailed() {
        assertStrategyFailed(catchThrowable(() -> strategies.resolve(endless(), null)));
    }

    @Test
    void aWorkerWaitingForABackgroundRunThatIsCancelledGetsStrategyFailed() {
        PublicArtifacts.StrategyTask task = endless();
        Caller analyst = new Caller(UUID.randomUUID(), "worker-cancellation-test", Role.ANALYST);
        assertThat(strategies.start(task, analyst).status()).isIn(StrategyService.Status.PENDING,
                StrategyService.Status.RUNNING);
        assertStrategyFailed(catchThrowable(() -> strategies.resolve(task, null)));
    }
}
