package io.privmat.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Free work waiting for a thread, fair across callers: FIFO within a caller, round robin between
 * callers (each turn serves the next caller that has work and is below its running limits), with
 * quotas on what a caller (an API key) and a tenant (its subject) may have waiting and running, and
 * on the whole queue. One caller flooding the queue gets its quota's worth of places and one turn in
 * each round; everyone else keeps theirs. Not thread-safe: its owner holds a lock.
 *
 * @param <T> the work
 */
final class FairQueue<T> {

    /** The limits; every count is per replica. */
    record Limits(int total, int queuedPerCaller, int queuedPerTenant, int runningPerCaller, int runningPerTenant) {}

    /** Why a new entry is refused. */
    enum Refusal {
        /** The queue holds {@code total} entries. */
        FULL,
        /** The caller has {@code queuedPerCaller} entries waiting. */
        CALLER,
        /** The tenant has {@code queuedPerTenant} entries waiting. */
        TENANT
    }

    /** Work and whose it is. */
    record Entry<T>(String caller, String tenant, T item) {}

    private final Limits limits;
    private final Map<String, ArrayDeque<Entry<T>>> waiting = new LinkedHashMap<>();
    private final ArrayDeque<String> ring = new ArrayDeque<>();
    private final Map<String, Integer> waitingByTenant = new HashMap<>();
    private final Map<String, Integer> runningByCaller = new HashMap<>();
    private final Map<String, Integer> runningByTenant = new HashMap<>();
    private int size;

    FairQueue(Limits limits) {
        this.limits = limits;
    }

    /** Why an entry of this caller would be refused now, or null if it would be accepted. */
    @Nullable Refusal refusal(String caller, String tenant) {
        if (size >= limits.total()) {
            return Refusal.FULL;
        }
        ArrayDeque<Entry<T>> mine = waiting.get(caller);
        if (mine != null && mine.size() >= limits.queuedPerCaller()) {
            return Refusal.CALLER;
        }
        if (waitingByTenant.getOrDefault(tenant, 0) >= limits.queuedPerTenant()) {
            return Refusal.TENANT;
        }
        return null;
    }

    /** Adds an entry (the caller checked {@link #refusal} first). */
    void add(Entry<T> entry) {
        ArrayDeque<Entry<T>> mine = waiting.computeIfAbsent(entry.caller(), k -> new ArrayDeque<>());
        if (mine.isEmpty()) {
            ring.addLast(entry.caller());
        }
        mine.addLast(entry);
        waitingByTenant.merge(entry.tenant(), 1, Integer::sum);
        size++;
    }

    /**
     * The next entry to run: the first caller in round-robin order that has work waiting and is below
     * its own and its tenant's running limits, which then goes to the back of the round. Counts the
     * entry as running until {@link #done}. Null when nothing may run now.
     */
    @Nullable Entry<T> next() {
        for (int turn = 0; turn < ring.size(); turn++) {
            String caller = ring.pollFirst();
            ArrayDeque<Entry<T>> mine = waiting.get(caller);
            Entry<T> head = mine.peekFirst();
            if (runningByCaller.getOrDefault(caller, 0) >= limits.runningPerCaller()
                    || runningByTenant.getOrDefault(head.tenant(), 0) >= limits.runningPerTenant()) {
                ring.addLast(caller);
                continue;
            }
            mine.pollFirst();
            if (mine.isEmpty()) {
                waiting.remove(caller);
            } else {
                ring.addLast(caller);
            }
            waitingByTenant.merge(head.tenant(), -1, Integer::sum);
            runningByCaller.merge(caller, 1, Integer::sum);
            runningByTenant.merge(head.tenant(), 1, Integer::sum);
            size--;
            return head;
        }
        return null;
    }

    /** An entry from {@link #next} has finished. */
    void done(Entry<T> entry) {
        runningByCaller.merge(entry.caller(), -1, Integer::sum);
        runningByTenant.merge(entry.tenant(), -1, Integer::sum);
    }

    /** Removes and returns everything waiting (shutdown). */
    List<Entry<T>> drain() {
        List<Entry<T>> out = new ArrayList<>();
        for (ArrayDeque<Entry<T>> q : waiting.values()) {
            out.addAll(q);
        }
        waiting.clear();
        ring.clear();
        waitingByTenant.clear();
        size = 0;
        return out;
    }

    int size() {
        return size;
    }
}
