package io.privmat.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The per-lane group commit (admissions' shape; the one-lane shape is AuditAppenderTest's): who joins
 * a batch, what an interrupt does, and what a failed write does. Callers are made to queue behind a
 * write held open by a latch, and are seen queued by their thread state, not by timing.
 */
class GroupCommitTest {

    /** An item: its lane, its group (items join a batch of their own group only), its name. */
    record Item(String lane, String group, String name) {}

    private final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch writing = new CountDownLatch(1);

    private GroupCommit<Item, String> commit(GroupCommit.Interrupts interrupts) {
        return GroupCommit.perLane("admission", 3, Item::lane, (first, next) -> first.group().equals(next.group()),
                interrupts, batch -> {
                    if (batch.get(0).name().equals("held")) {
                        writing.countDown();
                        await(release);
                    }
                    if (batch.get(0).name().startsWith("error")) {
                        throw new AssertionError("disk on fire");
                    }
                    batches.add(batch.stream().map(Item::name).toList());
                    return batch.stream().map(i -> i.name().startsWith("refused")
                            ? GroupCommit.Outcome.<String>failed(new IllegalArgumentException(i.name()))
                            : GroupCommit.Outcome.of("ok " + i.name())).toList();
                });
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(1, TimeUnit.MINUTES)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Submits on a new thread, and returns once that thread waits behind the running write. */
    private static CompletableFuture<String> queued(GroupCommit<Item, String> commit, Item item, List<Thread> threads) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(commit.submit(item));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        t.start();
        threads.add(t);
        while (t.getState() != Thread.State.WAITING && !result.isDone()) {
            Thread.onSpinWait();
        }
        return result;
    }

    @Test
    void waitingItemsAreWrittenInArrivalOrderInBatchesOfTheirGroupAndLaneUpToTheMaximum() throws Exception {
        GroupCommit<Item, String> commit = commit(GroupCommit.Interrupts.LEAVE_IF_WAITING);
        List<Thread> threads = new ArrayList<>();
        ExecutorService one = Executors.newSingleThreadExecutor();
        Future<String> held = one.submit(() -> commit.submit(new Item("A", "x", "held")));
        await(writing);
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (String name : List.of("x1", "x2", "x3", "x4")) {
            results.add(queued(commit, new Item("A", "x", name), threads));
        }
        results.add(queued(commit, new Item("A", "y", "refused-y1"), threads));
        results.add(queued(commit, new Item("A", "x", "x5"), threads));
        // Another lane is not held up by lane A's write.
        assertThat(commit.submit(new Item("B", "x", "b1"))).isEqualTo("ok b1");
        release.countDown();
        assertThat(held.get(1, TimeUnit.MINUTES)).isEqualTo("ok held");
        assertThat(results.get(0).get(1, TimeUnit.MINUTES)).isEqualTo("ok x1");
        assertThatThrownBy(() -> results.get(4).join()).hasCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("refused-y1");
        assertThat(results.get(5).get(1, TimeUnit.MINUTES)).isEqualTo("ok x5");
        for (Thread t : threads) {
            t.join();
        }
        one.shutdown();
        assertThat(batches).containsExactly(List.of("b1"), List.of("held"), List.of("x1", "x2", "x3"),
                List.of("x4"), List.of("refused-y1"), List.of("x5"));
    }

    @Test
    void aCallerInterruptedWhileItWaitsLeavesWithoutItsItemAndKeepsTheInterrupt() throws Exception {
        GroupCommit<Item, String> commit = commit(GroupCommit.Interrupts.LEAVE_IF_WAITING);
        ExecutorService one = Executors.newSingleThreadExecutor();
        Future<String> held = one.submit(() -> commit.submit(new Item("A", "x", "held")));
        await(writing);
        AtomicReference<Boolean> interruptKept = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<String> left = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                left.complete(commit.submit(new Item("A", "x", "leaves")));
            } catch (RuntimeException e) {
                interruptKept.set(Thread.currentThread().isInterrupted());
                left.completeExceptionally(e);
            }
        });
        t.start();
        while (t.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        t.interrupt();
        t.join();
        CompletableFuture<String> stays = queued(commit, new Item("A", "x", "stays"), threads);
        release.countDown();
        held.get(1, TimeUnit.MINUTES);
        assertThat(stays.get(1, TimeUnit.MINUTES)).isEqualTo("ok stays");
        assertThatThrownBy(left::join).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("interrupted before admission");
        assertThat(interruptKept.get()).isTrue();
        assertThat(batches).containsExactly(List.of("held"), List.of("stays"));
        one.shutdown();
    }

    @Test
    void anErrorInTheWriteReachesEveryCallerOfItsBatchAsAnIllegalStateAndTheLaneGoesOn() {
        GroupCommit<Item, String> commit = commit(GroupCommit.Interrupts.WAIT);
        assertThatThrownBy(() -> commit.submit(new Item("A", "x", "error")))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("admission failed: ")
                .hasCauseInstanceOf(AssertionError.class);
        assertThat(commit.submit(new Item("A", "x", "after"))).isEqualTo("ok after");
    }
}
