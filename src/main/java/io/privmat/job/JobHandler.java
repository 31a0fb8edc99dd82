package io.privmat.job;

/**
 * Computes one kind of job. Implementations are Spring beans registered by other capabilities
 * (e.g. the query catalogue). {@link #run} is called only after the job's charge is committed
 * ("data access started"), so it may read the dataset; anything it throws fails the job with a
 * generic message and the charge kept.
 */
public interface JobHandler {

    /** The job kind this handler computes, e.g. {@code COLUMN_SUMS}. */
    String kind();

    /** All the job kinds this handler computes (by default just {@link #kind()}). */
    default java.util.Set<String> kinds() {
        return java.util.Set.of(kind());
    }

    /**
     * Checks, before any data is read, that the job's stored plan still rebuilds into exactly the
     * loss that was reserved. Throwing {@link PlanMismatchException} fails the job closed and refunds
     * its charge (nothing was read).
     */
    default void verify(Job job) {}

    JobOutput run(JobContext context) throws Exception;

    /**
     * Called once the executor is done with a job it {@linkplain #verify verified}, on every path:
     * after {@link #run}, and also when {@code run} is never called (the job was cancelled or taken
     * back meanwhile, or this replica is stopping). Drop anything kept for the job.
     */
    default void discard(Job job) {}

    /**
     * The class of a failure this handler recognises (e.g. "sampler", "numerical"), from the
     * throwable's type only, never its message, for the operators' failure metric; null when it does
     * not recognise it. Called for each throwable of a failed job's cause chain.
     */
    default @org.jspecify.annotations.Nullable String failureClass(Throwable t) {
        return null;
    }
}
