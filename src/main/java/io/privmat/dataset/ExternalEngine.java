package io.privmat.dataset;

import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.PublicFacts;

/**
 * Computes the exact, clipped statistics of an EXTERNAL dataset where its rows are (Apache Spark in
 * the Spark-enabled build, docs/scale-out.md). An engine receives public parameters only (the
 * declaration, d, B, iteration vectors) and returns sums; noise is never added by an engine: the
 * service adds it with its own sampler. The default build has no engine: EXTERNAL datasets can be
 * declared but their queries are refused before any charge.
 */
public interface ExternalEngine {

    /** A short description for logs (e.g. the master URL); not for /actuator/info, which needs no key. */
    String describe();

    /**
     * Checks a declaration against the source's metadata (its schema: the columns exist and are
     * numeric) without reading rows.
     *
     * @throws IllegalArgumentException naming what does not match
     */
    void check(ExternalSchema schema);

    /**
     * The dataset's statistics for one job. Progress is reported from public values only (passes done
     * over passes planned); a pass that meets another row count than the declared one (REPLACE_ONE)
     * fails the job, keeping its charge.
     */
    DataAccess open(Dataset dataset, ExternalSchema schema, PublicFacts facts, EngineRun run);
}
