package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * The pure-ε filter: δ_B = 0, admit iff Σε_i ≤ ε_B. Valid under full adaptivity because each
 * step's privacy loss is bounded pointwise by a predictable ε_i, so the total is ≤ ε_B on every
 * path (Rogers et al. 2016; Tumult's {@code PureDPBudget}). Losses with δ &gt; 0, zCDP or
 * Gaussian losses are refused.
 */
public final class PureFilter implements BudgetFilter {

    private final Budget budget;
    private final Tracks capacity;

    PureFilter(Budget budget) {
        this.budget = budget;
        this.capacity = Tracks.ofEpsilon(budget.epsilon(), BigDecimal.ZERO);
    }

    @Override
    public Budget budget() {
        return budget;
    }

    @Override
    public Tracks capacity() {
        return capacity;
    }

    @Override
    public Tracks cost(PrivacyLoss loss) {
        Tracks cost = BasicFilter.epsilonDeltaCost(budget.mode(), loss);
        if (cost.delta().signum() != 0) {
            throw new IncompatibleLossException(budget.mode(), loss, "delta must be 0");
        }
        return cost;
    }

    @Override
    public ApproxDp guarantee(Tracks spent) {
        return new ApproxDp(spent.epsilon(), BigDecimal.ZERO);
    }

    @Override
    public BigDecimal largestPureEpsilon(Tracks spent) {
        return remaining(spent).epsilon();
    }
}
