package io.privmat.query;

import io.privmat.mechanism.catalog.PlanLimit;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.springframework.stereotype.Component;

/**
 * The gate of the free planning work computed while the caller waits: inverse quotes and dry runs
 * (docs/reliability.md, "Free work and storage"). Nothing is charged for them, so only this bounds
 * their CPU: at most half the cores' worth at once per replica (503 beyond), at most one at once per
 * API key (429 beyond: one key cannot hold every place), both refused at once with
 * {@code Retry-After}, and each for at most {@link #MAX_TIME} of planning and {@link #MAX_PLANS}
 * plans ({@link PlanLimit}).
 */
@Component
public class FreePlanning {

    /** Retry-After of a refused request. */
    static final long RETRY_AFTER_SECONDS = 1;
    /** Longest planning of one request (checked between plans: one plan in progress is finished). */
    public static final Duration MAX_TIME = Duration.ofSeconds(10);
    /** Most plans one request makes: an inverse quote's searches, alternatives included. */
    public static final int MAX_PLANS = 150;

    private final int limit;
    private final Semaphore places;
    private final Set<UUID> keys = ConcurrentHashMap.newKeySet();

    FreePlanning() {
        this(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    }

    FreePlanning(int limit) {
        this.limit = limit;
        this.places = new Semaphore(limit);
    }

    /** A place taken for one request, with its planning limit; closing gives the place back. */
    public final class Permit implements AutoCloseable {
        private final UUID key;
        private final PlanLimit planLimit = PlanLimit.of(MAX_PLANS, MAX_TIME.toNanos());
        private boolean closed;

        private Permit(UUID key) {
            this.key = key;
        }

        /** The plans and time this request may still spend. */
        public PlanLimit planLimit() {
            return planLimit;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                places.release();
                keys.remove(key);
            }
        }
    }

    /**
     * Takes a place for {@code what} (an inverse quote, a dry run), or refuses at once: 429 when this
     * key already has one in progress, 503 when the replica's places are taken.
     */
    public Permit enter(String what, Caller caller) {
        if (!keys.add(caller.keyId())) {
            throw new PrivmatException(ProblemType.RATE_LIMITED, "This API key already has an inverse quote or a dry "
                    + "run in progress (one at a time per key); retry when it has finished.",
                    Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
        }
        if (!places.tryAcquire()) {
            keys.remove(caller.keyId());
            throw new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "This replica already computes " + limit
                    + " inverse quotes or dry runs (free planning work, half its cores); retry " + what
                    + " shortly.", Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
        }
        return new Permit(caller.keyId());
    }

    /** The refusal of a request that ran out of its planning time or plans. */
    public static PrivmatException outOfTime(String what) {
        return new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "The " + what + " did not finish within its "
                + "limit of " + MAX_TIME.toSeconds() + " s (free planning work is bounded per request); nothing was "
                + "charged. Retry when the replica is less busy, or ask for less.",
                Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
    }
}
