package io.privmat.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 1: free work is served round robin between callers, within quotas per caller, per
 * tenant and in all, so one caller flooding the queue delays nobody else by more than one turn.
 */
class FairQueueTest {

    private static FairQueue.Entry<String> entry(String caller, String tenant, String item) {
        return new FairQueue.Entry<>(caller, tenant, item);
    }

    @Test
    void callersAreServedRoundRobinAndQuotasHold() {
        FairQueue<String> q = new FairQueue<>(new FairQueue.Limits(6, 3, 4, 1, 1));
        for (int i = 1; i <= 3; i++) {
            assertThat(q.refusal("flood", "t1")).isNull();
            q.add(entry("flood", "t1", "F" + i));
        }
        assertThat(q.refusal("flood", "t1")).as("three waiting: the caller's quota").isEqualTo(FairQueue.Refusal.CALLER);
        q.add(entry("quiet", "t2", "Q1"));
        q.add(entry("other", "t3", "O1"));
        q.add(entry("other", "t3", "O2"));
        assertThat(q.refusal("late", "t4")).as("six waiting: full").isEqualTo(FairQueue.Refusal.FULL);
        // One thread: each finishes before the next starts.
        List<String> order = new ArrayList<>();
        FairQueue.Entry<String> e;
        while ((e = q.next()) != null) {
            order.add(e.item());
            q.done(e);
        }
        assertThat(order).containsExactly("F1", "Q1", "O1", "F2", "O2", "F3");
        assertThat(q.size()).isZero();
    }

    @Test
    void aCallerOrTenantAtItsRunningLimitIsSkippedNotBlocking() {
        FairQueue<String> q = new FairQueue<>(new FairQueue.Limits(10, 5, 2, 1, 1));
        q.add(entry("a", "t", "A1"));
        q.add(entry("a", "t", "A2"));
        assertThat(q.refusal("b", "t")).as("the tenant's two places are taken").isEqualTo(FairQueue.Refusal.TENANT);
        q.add(entry("c", "u", "C1"));
        FairQueue.Entry<String> a1 = q.next();
        assertThat(a1.item()).isEqualTo("A1");
        // A1 runs: "a" (and tenant t) is at its running limit, so C1 goes next, then nothing.
        FairQueue.Entry<String> c1 = q.next();
        assertThat(c1.item()).isEqualTo("C1");
        assertThat(q.next()).isNull();
        q.done(a1);
        assertThat(q.next().item()).isEqualTo("A2");
        assertThat(q.drain()).isEmpty();
    }
}
