/**
 * Privacy accounting core: privacy losses as data, conversions between privacy notions,
 * Gaussian calibration and the budget filters that decide admission under fully adaptive
 * composition. Pure Java (JDK only): no Spring, no I/O, no logging.
 *
 * <p>Floating-point policy: every function that returns a privacy <em>cost</em> rounds up and
 * every function that returns a <em>remaining budget</em> or a cap rounds down, so an error in the
 * last bit never favours the analyst. See {@code docs/adr/0001-accounting-modes.md}
 * and {@code docs/accounting.md}.
 */
@NullMarked
package io.privmat.privacy;

import org.jspecify.annotations.NullMarked;
