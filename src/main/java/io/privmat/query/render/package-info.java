/**
 * A typed release rendered as the job's result document ({@code io.privmat.query.QueryResult}, one
 * record per result kind) and its main array, and the storing of releases that answer free queries
 * ({@link ResultDocuments}). Used by the job's run, dry runs and the start-up warm-up.
 */
@NullMarked
package io.privmat.query.render;

import org.jspecify.annotations.NullMarked;
