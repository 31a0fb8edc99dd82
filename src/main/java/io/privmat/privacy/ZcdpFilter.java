package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * The approximate-zCDP filter (docs/accounting.md §5, "design A").
 *
 * <p>At creation δ_B is split into δ_apx = f·δ_B (for (ε, δ)-only mechanisms) and
 * δ_conv = δ_B − δ_apx, and ρ_B is the largest ρ whose CKS20 conversion at δ_conv is ≤ ε_B
 * ({@link Conversions#largestZcdpRho}, rounded down). A charge (ρ, δ) is admitted iff
 * Σρ ≤ ρ_B and Σδ ≤ δ_apx.
 *
 * <p>Validity under fully adaptive choice of the charges: the zCDP filter Σρ_i ≤ ρ_B is a valid
 * ρ_B-zCDP filter (Feldman and Zrnic, NeurIPS 2021, the Rényi filter applied at every order α),
 * and with approximate charges it is δ_apx-approximately ρ_B-zCDP (Whitehouse, Ramdas, Rogers,
 * Wu, ICML 2023, the approximate-zCDP filter; OpenDP cites the same theorem). The stopped
 * interaction is therefore (ε_B, δ_conv + δ_apx)-DP (CKS20 Proposition 12 for the conversion).
 * Per-loss charges: pure ε ↦ ε²/2 (BS16 Prop 1.4); bounded range ε ↦ ε²/8 (Cesar–Rogers 2021);
 * Gaussian ↦ Δ²/2σ² (BS16 Prop 1.6); (ε, δ) ↦ (ε²/2, δ) (BS16 Def 8.1; docs/accounting.md §4).
 */
public final class ZcdpFilter implements BudgetFilter {

    private final Budget budget;
    private final BigDecimal deltaConversion;
    private final double deltaConversionDown;
    private final double alphaStar;
    private final Tracks capacity;

    ZcdpFilter(Budget budget) {
        this.budget = budget;
        BigDecimal deltaApprox = budget.approxDeltaFraction().multiply(budget.delta());
        this.deltaConversion = budget.delta().subtract(deltaApprox);
        this.deltaConversionDown = Decimals.toDoubleDown(deltaConversion);
        RhoBudget rhoBudget = Conversions.largestZcdpRho(Decimals.toDoubleDown(budget.epsilon()), deltaConversionDown);
        this.alphaStar = rhoBudget.alphaStar();
        this.capacity = Tracks.ofRho(Decimals.exact(rhoBudget.rho()).round(Decimals.DOWN_SHORT), deltaApprox);
    }

    @Override
    public Budget budget() {
        return budget;
    }

    @Override
    public Tracks capacity() {
        return capacity;
    }

    /** δ_conv: the part of δ_B spent by the zCDP → (ε, δ) conversion. */
    public BigDecimal deltaConversion() {
        return deltaConversion;
    }

    /** The Rényi order α* that certifies ρ_B (reported for audit). */
    public double alphaStar() {
        return alphaStar;
    }

    @Override
    public Tracks cost(PrivacyLoss loss) {
        // Java 17 has no pattern switch; this chain is exhaustive over the sealed PrivacyLoss.
        if (loss instanceof PureDp p) {
            return Tracks.ofRho(Decimals.halfSquareUp(p.epsilon()), BigDecimal.ZERO);
        } else if (loss instanceof BoundedRangeDp b) {
            return Tracks.ofRho(Decimals.eighthSquareUp(b.epsilon()), BigDecimal.ZERO);
        } else if (loss instanceof Zcdp z) {
            return Tracks.ofRho(z.rho(), BigDecimal.ZERO);
        } else if (loss instanceof ApproxZcdp a) {
            return Tracks.ofRho(a.rho(), a.delta());
        } else if (loss instanceof GaussianLoss g) {
            return Tracks.ofRho(g.rho(), BigDecimal.ZERO);
        } else if (loss instanceof ApproxDp a) {
            return Tracks.ofRho(Decimals.halfSquareUp(a.epsilon()), a.delta());
        }
        throw new IncompatibleLossException(budget.mode(), loss, "unknown loss");
    }

    @Override
    public ApproxDp guarantee(Tracks spent) {
        if (spent.rho().signum() == 0) {
            return new ApproxDp(BigDecimal.ZERO, spent.delta());
        }
        double epsilon = Conversions.zcdpToEpsilonCks(Decimals.toDoubleUp(spent.rho()), deltaConversionDown);
        return new ApproxDp(Decimals.exact(epsilon).round(Decimals.UP_SHORT), deltaConversion.add(spent.delta()));
    }

    /** √(2·ρ_remaining), rounded down: a pure ε-DP charge costs ε²/2. */
    @Override
    public BigDecimal largestPureEpsilon(Tracks spent) {
        BigDecimal twiceRho = remaining(spent).rho().multiply(BigDecimal.valueOf(2));
        BigDecimal root = twiceRho.sqrt(Decimals.DOWN);
        BigDecimal ulp = root.ulp();
        while (root.signum() > 0 && root.multiply(root).compareTo(twiceRho) > 0) {
            root = root.subtract(ulp);
        }
        return root;
    }
}
