package io.privmat.dataset;

import java.util.UUID;

/**
 * What an {@link ExternalEngine} sees of the job it computes statistics for: an id for its own
 * bookkeeping (a Spark job group, so a cancelled job's tasks can be cancelled) and a progress
 * callback. The dataset capability defines it so that its engine SPI does not depend on the job
 * engine (docs/architecture.md, the allowed arrows).
 */
public interface EngineRun {

    /** The id of the job this run computes for. */
    UUID id();

    /**
     * Reports progress in [0, 1], from public values only (passes done over passes planned); cheap to
     * call often. Throws an unchecked exception once the job was cancelled, so long passes stop early.
     */
    void progress(double fraction);
}
