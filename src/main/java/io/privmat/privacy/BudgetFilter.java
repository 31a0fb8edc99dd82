package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * A privacy filter (Rogers, Roth, Ullman, Vadhan 2016): given what has been spent and the cost of
 * the next charge, decide whether to admit it, so that the whole adaptive interaction stays within
 * the budget's (ε_B, δ_B) even when each charge was chosen after seeing earlier answers.
 *
 * <p>Admission depends only on public state (earlier charges, computed from public parameters),
 * so a refusal costs nothing. Costs are rounded up, caps and remainders down.
 */
public sealed interface BudgetFilter permits ZcdpFilter, BasicFilter, PureFilter, GdpFilter {

    Budget budget();

    /** The caps of the tracks this filter uses (rounded down). */
    Tracks capacity();

    /**
     * The amounts a loss costs on this filter's tracks (rounded up).
     *
     * @throws IncompatibleLossException if this mode cannot charge such a loss
     */
    Tracks cost(PrivacyLoss loss);

    /** True iff {@code spent + cost} fits within {@link #capacity()} on every track. */
    default boolean admits(Tracks spent, Tracks cost) {
        return spent.plus(cost).fitsWithin(capacity());
    }

    /** What is left on each track (rounded down, never negative). */
    default Tracks remaining(Tracks spent) {
        return capacity().minusFloor(spent);
    }

    /**
     * The (ε, δ)-DP guarantee of everything spent so far (for reporting; rounded up). With
     * nothing spent it is (0, 0); with the whole budget spent it is at most (ε_B, δ_B).
     */
    ApproxDp guarantee(Tracks spent);

    /** The largest ε of one more pure ε-DP (e.g. Laplace) charge that would still be admitted. */
    BigDecimal largestPureEpsilon(Tracks spent);
}
