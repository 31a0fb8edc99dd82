package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.MechanismContractTest.Case;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A dataset's rowNormBound was any B in (0, 10¹²] (datasets stored then keep theirs). A B so small that a Gaussian grid step
 * 2⁻¹²·min(σ, Δ/√p) would be subnormal used to be planned with the grid clamped to 2⁻¹⁰²², where the
 * charge no longer matched the noise (docs/mechanisms/noise.md, "Floors on tiny privacy parameters"),
 * or, where the step underflowed to 0, to throw — for HARDT_ROTH in the release, after the charge. For
 * every matrix and stream case and several tiny bounds, the plan is either refused (a 400, before any
 * charge: below {@link PublicFacts#MIN_ROW_NORM_BOUND}, which a new dataset cannot declare) or its release
 * is total: it neither throws nor releases NaN. Before the floor, B = MIN_VALUE made most plans throw
 * (500), and EIGEN_SAMPLING, HARDT_ROTH and ORBIT_SAMPLING throw after the charge, WISHART release NaN.
 */
class TinyRowBoundTest {

    static final double[] BOUNDS = {Double.MIN_VALUE, 1e-310, 1e-300, 1e-200, 1e-156, 1e-140, 1e-101, 1e-100, 1e-99, 1e12};

    static List<Case> cases() {
        return TotalityContractTest.cases().stream()
                .filter(c -> c.shape() == DataShape.MATRIX || c.shape() == DataShape.STREAM).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aTinyRowBoundIsRefusedOrReleasedTotally(Case c) {
        PublicFacts base = MechanismContractTest.plan(c, 1).spec().facts();
        double[][] rows = new double[MechanismContractTest.N][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new double[base.cols()];
            rows[i][i % base.cols()] = i % 2 == 0 ? 1 : -1; // clipped to B by the mechanism
        }
        for (double bound : BOUNDS) {
            PublicFacts facts = c.shape() == DataShape.STREAM
                    ? PublicFacts.stream(base.cols(), bound, c.relation(), base.mode(), base.stream())
                    : new PublicFacts(DataShape.MATRIX, base.cols(), base.publicRows(), bound, c.relation(), base.mode());
            Plan plan;
            try {
                plan = MechanismContractTest.plan(c, 1, facts);
            } catch (PlanningException refused) {
                continue;
            } catch (RuntimeException thrown) {
                fail("%s at B = %s: planning threw %s (a 500, not a 400)", c, bound, thrown);
                return;
            }
            Release release;
            try {
                release = plan.release(InMemoryData.matrix(rows), MechanismContractTest.seeded(1));
            } catch (RuntimeException thrown) {
                fail("%s at B = %s threw after the charge: %s", c, bound, thrown);
                return;
            }
            assertThat(Arrays.stream(MechanismContractTest.values(release)).noneMatch(Double::isNaN))
                    .as("%s at B = %s: no released value is NaN", c, bound).isTrue();
        }
    }

    /**
     * Analyze Gauss at B = 10⁻¹⁵⁶ under BASIC: the grid was clamped to 2⁻¹⁰²² (Δ/√p·2⁻¹² ≈ 2⁻¹⁰⁵⁰), σ_grid
     * became 1 and the loss as run μ ≈ d (ρ ≈ 8 here), while the ledger was charged the (ε = 1,
     * δ = 10⁻⁶) target. Refused now, naming rowNormBound (a dataset stored before the floor of 10⁻¹⁰⁰);
     * at the floor it plans within the budget.
     */
    @Test
    void analyzeGaussBelowTheRowBoundFloorIsRefusedBeforeTheCharge() {
        QueryBudget budget = new QueryBudget(BigDecimal.ONE, new BigDecimal("1e-6"), null);
        assertThatThrownBy(() -> MechanismCatalog.standard().plan("COVARIANCE", "ANALYZE_GAUSS", budget,
                RequestParams.of(Map.of()), facts(1e-156)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("rowNormBound");
        Plan ok = MechanismCatalog.standard().plan("COVARIANCE", "ANALYZE_GAUSS", budget, RequestParams.of(Map.of()),
                facts(PublicFacts.MIN_ROW_NORM_BOUND));
        assertThat(ok.privacy().asRun()).isInstanceOf(io.privmat.privacy.GaussianLoss.class);
        assertThat(((io.privmat.privacy.GaussianLoss) ok.privacy().asRun()).mu()).isLessThan(1);
    }

    private static PublicFacts facts(double bound) {
        return new PublicFacts(DataShape.MATRIX, 4, 8L, bound, NeighbouringRelation.REPLACE_ONE, AccountingMode.BASIC);
    }
}
