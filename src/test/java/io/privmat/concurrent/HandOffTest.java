package io.privmat.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The hand-off's bound and its owner's waits (its failure paths through the chunk reader and the
 * upload writer are StoredDataAccessReadTest's and MatrixWriterTest's).
 */
class HandOffTest {

    @Test
    void aSecondThreadProducerIsNeverMoreThanTheBoundAheadOfTheWork() {
        AtomicInteger produced = new AtomicInteger();
        List<Integer> aheadSeen = Collections.synchronizedList(new ArrayList<>());
        List<Integer> got = new ArrayList<>();
        HandOff.<Integer>fromSecondThread("test-producer", "testing", 1, put -> {
            for (int i = 0; i < 100; i++) {
                produced.incrementAndGet();
                put.accept(i);
            }
        }, item -> {
            // Item i in use, at most one queued and one being produced: produced ≤ i + 3.
            aheadSeen.add(produced.get() - item);
            got.add(item);
            Thread.yield();
        });
        assertThat(got).hasSize(100).isSorted();
        assertThat(aheadSeen).allSatisfy(a -> assertThat(a).isBetween(1, 3));
    }

    @Test
    void theOwnerPutsTheNextItemOnlyOnceThePreviousIsWorkedOnAndWaitsThroughAnInterrupt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        try (HandOff<String> writer = HandOff.toSecondThread("test-writer", 0, item -> {
            if (item.equals("first")) {
                try {
                    assertThat(release.await(1, TimeUnit.MINUTES)).isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            done.add(item);
        })) {
            writer.put("first");
            Thread owner = Thread.currentThread();
            Thread releaser = new Thread(() -> {
                while (owner.getState() != Thread.State.WAITING) {
                    Thread.onSpinWait();
                }
                owner.interrupt();
                release.countDown();
            });
            releaser.start();
            writer.put("second");
            assertThat(Thread.interrupted()).as("the interrupt is kept").isTrue();
            assertThat(done).contains("first");
            writer.flush();
            assertThat(done).containsExactly("first", "second");
            releaser.join();
        }
    }

    @Test
    void theWorksFailureIsThrownOnceByTheOwnersNextCallAndTheItemAfterIsNotHandedOver() {
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        IllegalArgumentException failure = new IllegalArgumentException("write failed");
        HandOff<String> writer = HandOff.toSecondThread("test-writer", 0, item -> {
            if (item.equals("bad")) {
                throw failure;
            }
            done.add(item);
        });
        writer.put("bad");
        assertThatThrownBy(() -> writer.put("never")).isSameAs(failure);
        writer.put("after");
        writer.close();
        assertThat(done).containsExactly("after");
    }
}
