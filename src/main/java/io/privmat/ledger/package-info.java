/**
 * The budget ledger: one account per dataset with caps from the dataset's privacy filter, an
 * append-only ledger of RESERVE, COMMIT and REFUND entries, and admission that locks the account
 * row so concurrent and adaptive queries can never spend past the budget. Public surface:
 * {@link io.privmat.ledger.BudgetService}; {@code jdbc} and {@code web} are internal.
 */
@NullMarked
package io.privmat.ledger;

import org.jspecify.annotations.NullMarked;
