package io.privmat.ledger;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;

/** An allocation the budget cannot take (docs/accounting.md §10): nothing was changed. */
public final class AllocationConflictException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    public AllocationConflictException(String detail, ProblemProperties properties) {
        super(ProblemType.ALLOCATION_CONFLICT, detail, properties);
    }
}
