/** HTTP adapter of the ledger: budget and ledger entries of a dataset (internal). */
@NullMarked
package io.privmat.ledger.web;

import org.jspecify.annotations.NullMarked;
