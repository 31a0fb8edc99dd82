package io.privmat.privacy;

/**
 * The privacy loss of one mechanism run, as data: what the ledger charges and what a job reports.
 *
 * <p>Each variant validates its parameters on construction (negative, NaN, infinite or
 * out-of-range values are rejected with a {@link PrivacyArgumentException} naming the parameter).
 * A loss says nothing about the neighbouring relation; the mechanism that states it does.
 */
public sealed interface PrivacyLoss
        permits PureDp, ApproxDp, Zcdp, ApproxZcdp, GaussianLoss, GaussianComposition, BoundedRangeDp {

    /** A short stable name of the privacy notion, e.g. {@code "zCDP"}. */
    String notion();
}
