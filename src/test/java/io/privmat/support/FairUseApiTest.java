package io.privmat.support;

import org.springframework.test.context.TestPropertySource;

/**
 * Base of HTTP tests of the fair-use limits (issue 36) with small quotas, so that a test reaches them
 * with a few requests. One Spring context (and database) shared by every subclass.
 */
@TestPropertySource(properties = {
    "privmat.workloads.max-bytes-per-caller=1KB", "privmat.workloads.max-per-caller=3",
    // One thread; a key may have one computation waiting, a subject two, the replica four. A computation
    // gets 2 s of wall clock; its operations budget is 2 s at 2e11/s, so what needs more than 8
    // iterations at n ≈ 1 770 is refused, and a 1 024-value prefix workload (about 30 iterations) is
    // accepted but cannot finish in time.
    "privmat.strategies.threads=1", "privmat.strategies.queue=4", "privmat.strategies.max-queued-per-caller=1",
    "privmat.strategies.max-queued-per-tenant=2", "privmat.strategies.max-compute-time=2s",
    "privmat.strategies.reference-rate=2e11", "privmat.strategies.prune-interval=0",
    // A computation cancelled at its time limit is remembered 6 s (30 min by default), then queued again.
    "privmat.strategies.time-limit-retry=6s"})
public abstract class FairUseApiTest extends ApiTest {}
