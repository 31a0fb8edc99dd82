/** The worker pool, heartbeats and the reaper (internal to the job capability). */
@NullMarked
package io.privmat.job.worker;

import org.jspecify.annotations.NullMarked;
