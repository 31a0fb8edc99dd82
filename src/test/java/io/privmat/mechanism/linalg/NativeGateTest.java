package io.privmat.mechanism.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The gate between native calls and the end of the process (on a gate of its own, never the
 * process's): at exit it waits for its holders, lets calls in flight finish, and keeps later calls out.
 */
class NativeGateTest {

    @Test
    void atExitWaitsForHoldersThenForCallsInFlightAndKeepsLaterCallsOut() throws Exception {
        NativeGate gate = new NativeGate();
        gate.holdGate();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Thread running = new Thread(() -> {
            gate.enterGate();
            try {
                inside.countDown();
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                gate.exitGate();
            }
        });
        running.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicBoolean drained = new AtomicBoolean();
        Thread exit = new Thread(() -> drained.set(gate.atExit(30, 30)));
        exit.start();
        // Held: the gate stays open, so a new call still gets in.
        Thread late = new Thread(() -> {
            gate.enterGate();
            gate.exitGate();
        });
        late.start();
        late.join(10_000);
        assertThat(late.isAlive()).as("a call while the gate is held").isFalse();
        assertThat(exit.isAlive()).isTrue();
        // Released: the gate closes and waits for the call in flight.
        gate.releaseGate();
        exit.join(300);
        assertThat(exit.isAlive()).as("waiting for the call in flight").isTrue();
        Thread blocked = new Thread(() -> gate.enterGate());
        blocked.setDaemon(true);
        blocked.start();
        finish.countDown();
        exit.join(10_000);
        assertThat(exit.isAlive()).isFalse();
        assertThat(drained).isTrue();
        blocked.join(300);
        assertThat(blocked.isAlive()).as("a call after the gate closed never gets in").isTrue();
    }

    @Test
    void theDrainIsBounded() throws Exception {
        NativeGate gate = new NativeGate();
        CountDownLatch inside = new CountDownLatch(1);
        Thread stuck = new Thread(() -> {
            gate.enterGate();
            inside.countDown();
        });
        stuck.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        assertThat(gate.closeAndDrain(200, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(190));
    }
}
