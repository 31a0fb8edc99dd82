package io.privmat.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class BudgetFilterTest {

    private static BigDecimal dec(String s) {
        return new BigDecimal(s);
    }

    @Test
    void zcdpBudgetSplitsDeltaAndInvertsCks() {
        ZcdpFilter filter = (ZcdpFilter) Budget.of(1, 1e-6, AccountingMode.ZCDP).filter();
        assertThat(filter.capacity().delta()).isEqualByComparingTo("1E-7");
        assertThat(filter.deltaConversion()).isEqualByComparingTo("9E-7");
        assertThat(filter.capacity().rho().doubleValue())
                .isEqualTo(Conversions.largestZcdpRho(1, 9e-7).rho())
                .isBetween(0.0235, 0.0244);
    }

    @Test
    void admitsLaplaceQueriesAsInTheReferenceTable() {
        // docs/accounting.md §5 with all δ spent on the conversion: (1, 1e-6), Laplace ε₀ = 0.01 → 487.
        assertThat(countAdmitted(new Budget(dec("1"), dec("1e-6"), AccountingMode.ZCDP, BigDecimal.ZERO).filter(),
                PureDp.of(0.01))).isEqualTo(487);
        assertThat(countAdmitted(new Budget(dec("1"), dec("1e-6"), AccountingMode.ZCDP, BigDecimal.ZERO).filter(),
                PureDp.of(0.1))).isEqualTo(4);
        assertThat(countAdmitted(new Budget(dec("8"), dec("1e-5"), AccountingMode.ZCDP, BigDecimal.ZERO).filter(),
                PureDp.of(0.1))).isEqualTo(245);
        // Basic composition admits exactly ε_B/ε₀ (exact decimal sums).
        assertThat(countAdmitted(Budget.of(1, 1e-6, AccountingMode.BASIC).filter(), PureDp.of(0.1))).isEqualTo(10);
        assertThat(countAdmitted(Budget.of(1, 0, AccountingMode.PURE).filter(), PureDp.of(0.01))).isEqualTo(100);
        assertThat(countAdmitted(Budget.of(8, 1e-5, AccountingMode.BASIC).filter(), PureDp.of(0.5))).isEqualTo(16);
    }

    private static int countAdmitted(BudgetFilter filter, PrivacyLoss loss) {
        Tracks spent = Tracks.ZERO;
        Tracks cost = filter.cost(loss);
        int n = 0;
        while (filter.admits(spent, cost)) {
            spent = spent.plus(cost);
            n++;
        }
        return n;
    }

    @Test
    void approximateMechanismsUseTheDeltaTrack() {
        BudgetFilter filter = Budget.of(8, 1e-5, AccountingMode.ZCDP).filter();
        Tracks cost = filter.cost(ApproxDp.of(0.5, 4e-7));
        assertThat(cost.rho()).isEqualByComparingTo("0.125");
        assertThat(cost.delta()).isEqualByComparingTo("4e-7");
        // δ_apx = 1e-6: two such charges fit, the third does not, whatever ρ remains.
        Tracks spent = Tracks.ZERO.plus(cost).plus(cost);
        assertThat(filter.admits(Tracks.ZERO.plus(cost), cost)).isTrue();
        assertThat(filter.admits(spent, cost)).isFalse();
        assertThat(filter.admits(spent, filter.cost(PureDp.of(0.5)))).isTrue();
    }

    @Test
    void guaranteeOfTheWholeBudgetIsTheBudget() {
        for (AccountingMode mode : AccountingMode.values()) {
            Budget budget = Budget.of(3, mode == AccountingMode.PURE ? 0 : 1e-5, mode);
            BudgetFilter filter = budget.filter();
            ApproxDp all = filter.guarantee(filter.capacity());
            assertThat(all.epsilon().doubleValue()).isLessThanOrEqualTo(3).isGreaterThan(3 - 1e-6);
            assertThat(all.delta()).isLessThanOrEqualTo(budget.delta());
            assertThat(filter.guarantee(Tracks.ZERO).epsilon()).isEqualByComparingTo("0");
        }
    }

    @Test
    void remainingAndLargestPureEpsilon() {
        BudgetFilter filter = Budget.of(1, 1e-6, AccountingMode.ZCDP).filter();
        Tracks spent = filter.cost(new GaussianLoss(1, 10));
        assertThat(spent.rho()).isEqualByComparingTo("0.005");
        Tracks remaining = filter.remaining(spent);
        assertThat(remaining.rho()).isEqualByComparingTo(filter.capacity().rho().subtract(dec("0.005")));
        BigDecimal eps = filter.largestPureEpsilon(spent);
        assertThat(filter.admits(spent, filter.cost(new PureDp(eps)))).isTrue();
        assertThat(filter.admits(spent, filter.cost(new PureDp(eps.multiply(dec("1.000001")))))).isFalse();
        assertThat(Budget.of(2, 0, AccountingMode.PURE).filter().largestPureEpsilon(Tracks.ofEpsilon(dec("0.5"), BigDecimal.ZERO)))
                .isEqualByComparingTo("1.5");
    }

    @Test
    void modesRefuseLossesTheyCannotCharge() {
        BudgetFilter pure = Budget.of(1, 0, AccountingMode.PURE).filter();
        assertThatThrownBy(() -> pure.cost(new GaussianLoss(1, 1))).isInstanceOf(IncompatibleLossException.class)
                .hasMessageContaining("PURE accounting cannot charge a Gaussian loss");
        assertThatThrownBy(() -> pure.cost(ApproxDp.of(1, 1e-9))).isInstanceOf(IncompatibleLossException.class);
        assertThat(pure.cost(ApproxDp.of(1, 0))).isEqualTo(Tracks.ofEpsilon(dec("1.0"), dec("0.0")));
        BudgetFilter basic = Budget.of(1, 1e-6, AccountingMode.BASIC).filter();
        assertThatThrownBy(() -> basic.cost(Zcdp.of(0.1))).isInstanceOf(IncompatibleLossException.class)
                .hasMessageContaining("calibrated to");
        assertThat(basic.cost(BoundedRangeDp.of(0.3)).epsilon()).isEqualByComparingTo("0.3");
        BudgetFilter zcdp = Budget.of(1, 1e-6, AccountingMode.ZCDP).filter();
        assertThat(zcdp.cost(BoundedRangeDp.of(0.4)).rho()).isEqualByComparingTo("0.02");
    }

    @Test
    void budgetValidationNamesParameterAndRange() {
        assertThatThrownBy(() -> Budget.of(-1, 1e-6, AccountingMode.ZCDP))
                .isInstanceOf(PrivacyArgumentException.class)
                .hasMessage("epsilon must be in (0, 100] but was -1.0")
                .extracting(e -> ((PrivacyArgumentException) e).parameter()).isEqualTo("epsilon");
        assertThatThrownBy(() -> Budget.of(Double.NaN, 1e-6, AccountingMode.ZCDP))
                .hasMessage("epsilon must be a finite number but was NaN");
        assertThatThrownBy(() -> Budget.of(1, 0, AccountingMode.ZCDP))
                .hasMessage("delta must be in (0, 0.01] but was 0.0");
        assertThatThrownBy(() -> Budget.of(1, 1e-6, AccountingMode.PURE))
                .hasMessage("delta must be 0 with PURE accounting but was 0.0000010");
        assertThatThrownBy(() -> Budget.of(1, 0.5, AccountingMode.BASIC))
                .hasMessage("delta must be in [0, 0.01] but was 0.5");
        assertThatThrownBy(() -> new Budget(dec("1"), dec("1e-6"), AccountingMode.ZCDP, BigDecimal.ONE))
                .hasMessage("approxDeltaFraction must be in [0, 1) but was 1");
        assertThatThrownBy(() -> new Budget(dec("1"), null, AccountingMode.ZCDP, BigDecimal.ONE))
                .hasMessage("delta is required");
    }

    @Test
    void lossValidation() {
        assertThatThrownBy(() -> PureDp.of(-0.1)).hasMessage("epsilon must be in [0, ∞) but was -0.1");
        assertThatThrownBy(() -> ApproxDp.of(1, 1)).hasMessage("delta must be in [0, 1) but was 1.0");
        assertThatThrownBy(() -> Zcdp.of(Double.POSITIVE_INFINITY)).hasMessage("rho must be a finite number but was Infinity");
        assertThatThrownBy(() -> new GaussianLoss(1, 0)).hasMessage("sigma must be in (0, ∞) but was 0.0");
        assertThatThrownBy(() -> ApproxZcdp.of(0.1, -1e-9)).isInstanceOf(PrivacyArgumentException.class);
        assertThatThrownBy(() -> new Tracks(dec("-1"), BigDecimal.ZERO, BigDecimal.ZERO)).isInstanceOf(PrivacyArgumentException.class);
    }
}
