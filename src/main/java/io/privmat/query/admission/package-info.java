/**
 * Admission of queries: quotes and inverse quotes (charging nothing), submission with idempotency
 * and repeat answers, and the reserve + enqueue of each admitted job in one transaction, grouped
 * per dataset ({@link Admissions}). Uses the planning of the package above.
 */
@NullMarked
package io.privmat.query.admission;

import org.jspecify.annotations.NullMarked;
