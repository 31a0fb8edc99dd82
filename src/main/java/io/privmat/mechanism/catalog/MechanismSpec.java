package io.privmat.mechanism.catalog;

/**
 * The canonical, versioned plan of a query: which mechanism, for which kind, with which budget and
 * validated parameters (defaults filled in), on which public facts. It is what the ledger and the job
 * store; the worker rebuilds the mechanism from it and checks the loss before reading any row.
 * Its stored JSON form (sorted keys, exact decimals) is written and read by one versioned codec on the
 * service side (docs/architecture.md, "The plan documents"); this package stays free of JSON.
 */
public record MechanismSpec(int version, QueryKind kind, String mechanism, QueryBudget budget, Params params,
        PublicFacts facts) {

    /** The current spec version; bump when the meaning of a stored spec changes. */
    public static final int VERSION = 1;

    /**
     * What this spec reads back as from its stored document, before the mechanism validates its
     * parameters again: the worker's {@link MechanismCatalog#rebuild} of it gives this plan again.
     */
    public ParsedSpec parsed() {
        return new ParsedSpec(kind, mechanism, budget, params.stored(), facts);
    }
}
