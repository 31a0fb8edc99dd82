package io.privmat.mechanism.catalog;

/**
 * How many plans, and how much time, one free request may still spend planning (an inverse quote's
 * searches: docs/accuracy/inverse-quote.md, "Limits"). Checked before each plan: a plan in progress
 * is finished. Depends only on the request and the clock, never on data. Not thread-safe.
 */
public final class PlanLimit {

    private final int maxPlans;
    private final long deadline;
    private final long maxNanos;
    private int plans;

    private PlanLimit(int maxPlans, long maxNanos) {
        this.maxPlans = maxPlans;
        this.maxNanos = maxNanos;
        this.deadline = System.nanoTime() + maxNanos;
    }

    /** At most {@code maxPlans} plans, started within {@code maxNanos} from now. */
    public static PlanLimit of(int maxPlans, long maxNanos) {
        if (maxPlans < 1 || maxNanos < 1) {
            throw new IllegalArgumentException("a plan limit needs at least one plan and one nanosecond");
        }
        return new PlanLimit(maxPlans, maxNanos);
    }

    /** No limit (library use and tests of the search itself). */
    public static PlanLimit none() {
        return new PlanLimit(Integer.MAX_VALUE, Long.MAX_VALUE / 4);
    }

    /** Whether no plan may be started any more. */
    public boolean exhausted() {
        return plans >= maxPlans || System.nanoTime() - deadline > 0;
    }

    /** Plans counted so far. */
    public int plans() {
        return plans;
    }

    /** Counts one plan about to be made, or throws {@link Exhausted} when none may be. */
    void spend() {
        if (exhausted()) {
            throw new Exhausted(describe());
        }
        plans++;
    }

    /** The limit in words, for the answers it cuts short. */
    public String describe() {
        return "the request's planning limit (" + (maxPlans == Integer.MAX_VALUE ? "no plan limit"
                : maxPlans + (maxPlans == 1 ? " plan" : " plans"))
                + ", " + (maxNanos >= Long.MAX_VALUE / 4 ? "no time limit" : Math.round(maxNanos / 1e9) + " s") + ")";
    }

    /** Thrown when a plan is asked for after the limit is reached. */
    public static final class Exhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exhausted(String message) {
            super(message, null, false, false);
        }
    }
}
