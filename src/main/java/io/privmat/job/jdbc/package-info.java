/** JDBC access to jobs and results (internal). */
@NullMarked
package io.privmat.job.jdbc;

import org.jspecify.annotations.NullMarked;
