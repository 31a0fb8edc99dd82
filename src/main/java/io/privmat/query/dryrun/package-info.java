/**
 * Dry runs (docs/dry-run.md): a request planned and released on stand-in data made from the
 * dataset's public facts only, rendered as a job's result would be; nothing charged or stored.
 */
@NullMarked
package io.privmat.query.dryrun;

import org.jspecify.annotations.NullMarked;
