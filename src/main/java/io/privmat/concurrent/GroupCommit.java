package io.privmat.concurrent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Group commit: callers whose items arrive while a batch of their lane is being written wait, and
 * the first of them to find the lane free writes everything waiting, in arrival order, as one batch
 * (at most {@code maxBatch} items, and only while each joins the batch's first item); a caller that
 * finds its lane free writes its own item at once, alone. Each caller returns its own item's outcome
 * once the batch holding it is written, or throws its failure: a failure of the whole write reaches
 * every caller of that batch (an {@link Error} as an {@link IllegalStateException}), and the next
 * batch is written afresh. Used by admissions (one lane per dataset) and by the audit log (one lane).
 *
 * @param <I> an item to write
 * @param <O> an item's outcome ({@link Void} when there is none)
 */
public final class GroupCommit<I, O> {

    /** Writes one batch. */
    @FunctionalInterface
    public interface Writer<I, O> {
        /**
         * Writes the items, in this order, returning one outcome per item in the same order; throwing
         * fails every item of the batch.
         */
        List<Outcome<O>> write(List<I> batch);

        /** A writer whose batch succeeds or fails as a whole. */
        static <I> Writer<I, Void> whole(Consumer<List<I>> write) {
            return batch -> {
                write.accept(batch);
                List<Outcome<Void>> done = new ArrayList<>(batch.size());
                for (int i = 0; i < batch.size(); i++) {
                    done.add(new Outcome<>(null, null));
                }
                return done;
            };
        }
    }

    /** One item's outcome: its value, or why it failed. */
    public record Outcome<O>(@Nullable O value, @Nullable RuntimeException failure) {

        public static <O> Outcome<O> of(O value) {
            return new Outcome<>(value, null);
        }

        public static <O> Outcome<O> failed(RuntimeException failure) {
            return new Outcome<>(null, failure);
        }

        /** The value, or the failure thrown. */
        public @Nullable O result() {
            if (failure != null) {
                throw failure;
            }
            return value;
        }
    }

    /** What an interrupt does to a caller waiting for the lane. */
    public enum Interrupts {
        /**
         * A caller whose item is not yet in a running batch leaves: its item is taken back and it
         * throws an {@link IllegalStateException} with the interrupt kept; one whose item is in a
         * running batch waits for its outcome.
         */
        LEAVE_IF_WAITING,
        /** Every caller waits for its item's outcome; the interrupt is kept for its caller. */
        WAIT
    }

    private final String what;
    private final int maxBatch;
    private final @Nullable Function<I, ?> laneKey;
    private final BiPredicate<I, I> joins;
    private final Interrupts interrupts;
    private final Writer<I, O> writer;
    private final Map<Object, Lane<I, O>> lanes = new ConcurrentHashMap<>();
    private final Lane<I, O> only = new Lane<>("");

    private GroupCommit(String what, int maxBatch, @Nullable Function<I, ?> laneKey, BiPredicate<I, I> joins,
            Interrupts interrupts, Writer<I, O> writer) {
        this.what = what;
        this.maxBatch = maxBatch;
        this.laneKey = laneKey;
        this.joins = joins;
        this.interrupts = interrupts;
        this.writer = writer;
    }

    /**
     * All items in one lane, every waiting item joining the batch.
     *
     * @param what names the write in failures ("audit append")
     */
    public static <I, O> GroupCommit<I, O> oneLane(String what, int maxBatch, Interrupts interrupts,
            Writer<I, O> writer) {
        return new GroupCommit<>(what, maxBatch, null, (first, next) -> true, interrupts, writer);
    }

    /**
     * One lane per key: items of different lanes never share a batch, and batches of different lanes
     * are written concurrently. An idle lane is forgotten (one per key ever seen would only grow); a
     * caller that took it just before still runs on it, one that arrives after gets a new lane, so
     * two lanes of one key may briefly coexist and only batch less.
     *
     * @param what names the write in failures ("admission")
     * @param joins whether an item (second argument) may join a batch that starts with the first
     */
    public static <I, O> GroupCommit<I, O> perLane(String what, int maxBatch, Function<I, ?> laneKey,
            BiPredicate<I, I> joins, Interrupts interrupts, Writer<I, O> writer) {
        return new GroupCommit<>(what, maxBatch, laneKey, joins, interrupts, writer);
    }

    /** One waiting caller. */
    private static final class Waiter<I, O> {
        final I item;
        boolean done;
        @Nullable Outcome<O> outcome;

        Waiter(I item) {
            this.item = item;
        }
    }

    /** The callers of one lane waiting for its running batch. */
    private static final class Lane<I, O> {
        final Object key;
        final ArrayDeque<Waiter<I, O>> waiting = new ArrayDeque<>();
        boolean busy;

        Lane(Object key) {
            this.key = key;
        }
    }

    /**
     * Writes the item with whatever else is waiting in its lane; returns its outcome's value once the
     * batch holding it is written.
     *
     * @throws RuntimeException the item's failure, or the failure of its batch's write
     */
    public @Nullable O submit(I item) {
        Lane<I, O> lane = laneKey == null ? only : lanes.computeIfAbsent(laneKey.apply(item), Lane::new);
        Waiter<I, O> self = new Waiter<>(item);
        List<Waiter<I, O>> batch = new ArrayList<>();
        synchronized (lane) {
            lane.waiting.add(self);
        }
        boolean interrupted = false;
        while (true) {
            synchronized (lane) {
                while (!self.done && lane.busy) {
                    try {
                        lane.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                        if (interrupts == Interrupts.LEAVE_IF_WAITING && lane.waiting.remove(self)) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted before " + what, e);
                        }
                        // Already taken into a running batch (or told to wait): its outcome is coming.
                    }
                }
                if (self.done) {
                    break;
                }
                lane.busy = true;
                batch.clear();
                I first = Objects.requireNonNull(lane.waiting.peek()).item;
                while (!lane.waiting.isEmpty() && batch.size() < maxBatch
                        && joins.test(first, Objects.requireNonNull(lane.waiting.peek()).item)) {
                    batch.add(lane.waiting.poll());
                }
            }
            write(lane, batch);
            // Not done only if its item did not fit this batch: take the next one.
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return Objects.requireNonNull(self.outcome).result();
    }

    private void write(Lane<I, O> lane, List<Waiter<I, O>> batch) {
        List<Outcome<O>> outcomes = null;
        RuntimeException failure = null;
        try {
            outcomes = writer.write(batch.stream().map(w -> w.item).toList());
        } catch (RuntimeException e) {
            failure = e;
        } catch (Error e) {
            // Every caller of the batch (the writing one too) gets the failure, not a missing outcome.
            failure = new IllegalStateException(what + " failed: " + e, e);
        } finally {
            synchronized (lane) {
                for (int i = 0; i < batch.size(); i++) {
                    Waiter<I, O> w = batch.get(i);
                    w.outcome = outcomes != null ? outcomes.get(i) : new Outcome<>(null, failure);
                    w.done = true;
                }
                lane.busy = false;
                lane.notifyAll();
                if (laneKey != null && lane.waiting.isEmpty()) {
                    lanes.remove(lane.key, lane);
                }
            }
        }
    }
}
