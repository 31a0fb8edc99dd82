package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * The basic-composition filter: admit iff Σε_i ≤ ε_B and Σδ_i ≤ δ_B.
 *
 * <p>Valid under fully adaptive composition (Rogers, Roth, Ullman, Vadhan, NeurIPS 2016,
 * arXiv:1605.08294, the basic-composition filter; cited by OpenDP as Lemma 3.5 of v1). It beats
 * the zCDP filter for a few large (ε, δ)-only releases, which zCDP must charge as ρ = ε²/2.
 *
 * <p>It charges losses that are stated in (ε, δ): pure ε, bounded range (ε-DP) and (ε, δ). A
 * Gaussian mechanism is charged the (ε, δ) it was calibrated to, so the planner presents it as an
 * {@link ApproxDp}; a bare Gaussian, zCDP or approximate-zCDP loss has no single (ε, δ) and is
 * refused rather than converted at an arbitrary δ.
 */
public final class BasicFilter implements BudgetFilter {

    private final Budget budget;
    private final Tracks capacity;

    BasicFilter(Budget budget) {
        this.budget = budget;
        this.capacity = Tracks.ofEpsilon(budget.epsilon(), budget.delta());
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
        return epsilonDeltaCost(budget.mode(), loss);
    }

    /** The (ε, δ) of losses stated in those terms; shared with {@link PureFilter}. */
    static Tracks epsilonDeltaCost(AccountingMode mode, PrivacyLoss loss) {
        if (loss instanceof PureDp p) {
            return Tracks.ofEpsilon(p.epsilon(), BigDecimal.ZERO);
        } else if (loss instanceof BoundedRangeDp b) {
            return Tracks.ofEpsilon(b.epsilon(), BigDecimal.ZERO);
        } else if (loss instanceof ApproxDp a) {
            return Tracks.ofEpsilon(a.epsilon(), a.delta());
        }
        // Zcdp, ApproxZcdp, GaussianLoss and GaussianComposition have no single (ε, δ).
        throw new IncompatibleLossException(mode, loss, mode == AccountingMode.PURE
                ? "it is not pure epsilon-DP" : "state the (epsilon, delta) the mechanism was calibrated to");
    }

    @Override
    public ApproxDp guarantee(Tracks spent) {
        return new ApproxDp(spent.epsilon(), spent.delta());
    }

    @Override
    public BigDecimal largestPureEpsilon(Tracks spent) {
        return remaining(spent).epsilon();
    }
}
