package io.privmat.ledger;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;

/**
 * The budget cannot pay a query's cost. States the requested cost, what remains and the accounting
 * mode: all functions of public parameters and earlier charges, never of the data.
 */
public final class BudgetExhaustedException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    private final Limit limit;

    public BudgetExhaustedException(AccountingMode mode, Tracks requested, Tracks remaining) {
        this(mode, requested, Limit.TOTAL, remaining, remaining);
    }

    /**
     * @param limit the limit that cannot pay (docs/accounting.md §10): the caller's allocation, the
     *     unallocated pool it draws from, or the dataset's total
     * @param remaining what remains of that limit
     * @param totalRemaining what remains of the dataset's total (public to every caller of the dataset)
     */
    public BudgetExhaustedException(AccountingMode mode, Tracks requested, Limit limit, Tracks remaining,
            Tracks totalRemaining) {
        super(ProblemType.BUDGET_EXHAUSTED, message(limit) + " (" + mode + " accounting).",
                properties(mode, requested, limit, remaining, totalRemaining));
        this.limit = limit;
    }

    public Limit limit() {
        return limit;
    }

    private static String message(Limit limit) {
        return switch (limit) {
            case ALLOCATION -> "Your allocation of this dataset's privacy budget cannot pay this query";
            case POOL -> "The unallocated pool of this dataset's privacy budget cannot pay this query";
            case TOTAL -> "The dataset's remaining privacy budget cannot pay this query";
        };
    }

    private static ProblemProperties properties(AccountingMode mode, Tracks requested, Limit limit, Tracks remaining,
            Tracks totalRemaining) {
        return ProblemProperties.of("accounting", mode.name(), "limit", limit.name())
                .with("requested", TrackView.charged(requested, mode).members())
                .with("remaining", TrackView.available(remaining, mode).members())
                .with("totalRemaining", TrackView.available(totalRemaining, mode).members());
    }
}
