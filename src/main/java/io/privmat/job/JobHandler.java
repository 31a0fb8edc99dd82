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
}
