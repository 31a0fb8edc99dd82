package io.privmat.job;

/**
 * Thrown from {@link JobContext#progress} when the job is no longer RUNNING under this worker
 * (cancelled, or reaped after a lost lease): the handler stops instead of computing a result
 * nobody will publish. The executor treats it as a quiet end, not a failure.
 */
public class JobStoppedException extends RuntimeException {

    public JobStoppedException() {
        super("the job is no longer running under this worker", null, false, false);
    }
}
