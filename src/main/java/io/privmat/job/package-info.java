/**
 * The job capability (see architecture.md). Placeholder: built by a later issue; the package
 * exists so that the architecture rules cover it from the start.
 */
@NullMarked
package io.privmat.job;

import org.jspecify.annotations.NullMarked;
