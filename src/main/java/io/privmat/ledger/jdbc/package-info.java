/** JDBC access to budget accounts and ledger entries (internal). */
@NullMarked
package io.privmat.ledger.jdbc;

import org.jspecify.annotations.NullMarked;
