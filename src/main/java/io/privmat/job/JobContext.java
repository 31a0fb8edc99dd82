package io.privmat.job;

/** What a handler sees of its job, and how it reports progress. */
public interface JobContext {

    Job job();

    /**
     * Reports progress in [0, 1]; cheap to call often (updates are throttled). Throws
     * {@link JobStoppedException} once the job was cancelled or reaped, so long jobs stop early.
     */
    void progress(double fraction);
}
