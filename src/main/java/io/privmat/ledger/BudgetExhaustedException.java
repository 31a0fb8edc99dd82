package io.privmat.ledger;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The budget cannot pay a query's cost. States the requested cost, what remains and the accounting
 * mode: all functions of public parameters and earlier charges, never of the data.
 */
public final class BudgetExhaustedException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    public BudgetExhaustedException(AccountingMode mode, Tracks requested, Tracks remaining) {
        super(ProblemType.BUDGET_EXHAUSTED, "The dataset's remaining privacy budget cannot pay this query ("
                + mode + " accounting).", properties(mode, requested, remaining));
    }

    private static Map<String, Object> properties(AccountingMode mode, Tracks requested, Tracks remaining) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("accounting", mode.name());
        props.put("requested", TrackView.charged(requested, mode));
        props.put("remaining", TrackView.available(remaining, mode));
        return props;
    }
}
