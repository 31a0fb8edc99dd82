/** HTTP adapter of the job capability (internal). */
@NullMarked
package io.privmat.job.web;

import org.jspecify.annotations.NullMarked;
