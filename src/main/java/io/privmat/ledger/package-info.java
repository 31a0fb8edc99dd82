/**
 * The ledger capability (see architecture.md). Placeholder: built by a later issue; the package
 * exists so that the architecture rules cover it from the start.
 */
@NullMarked
package io.privmat.ledger;

import org.jspecify.annotations.NullMarked;
