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

    JobOutput run(JobContext context) throws Exception;
}
