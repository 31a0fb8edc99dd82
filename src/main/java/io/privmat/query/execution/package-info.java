/**
 * The query job's run on a worker: the job handler that rebuilds and checks a job's plan before data
 * access ({@link QueryJobHandler}), the stored rows as the statistics a mechanism reads with public
 * progress only ({@link StoredDataAccess}), and the reader thread one chunk ahead ({@link ChunkReader}).
 */
@NullMarked
package io.privmat.query.execution;

import org.jspecify.annotations.NullMarked;
