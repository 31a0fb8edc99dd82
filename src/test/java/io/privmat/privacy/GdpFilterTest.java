package io.privmat.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Gaussian-DP filter (docs/adr/0007-gdp-accounting.md). */
class GdpFilterTest {

    /**
     * A Gaussian mechanism calibrated (analytic Gaussian) to (ε, δ) as the planners do it: the exact
     * grid plan of {@code GaussianVectorMechanism.forApproxDp} (Δ = 1, 10 coordinates), whose loss
     * carries the grid-inflated sensitivity.
     */
    private static GaussianLoss gaussianAt(double epsilon, double delta) {
        return io.privmat.mechanism.GaussianVectorMechanism.forApproxDp(1, epsilon, delta, 10).privacyLoss();
    }

    private static int countAdmitted(BudgetFilter filter, PrivacyLoss loss) {
        Tracks spent = Tracks.ZERO;
        Tracks cost = filter.cost(loss);
        int n = 0;
        while (filter.admits(spent, cost) && n < 100_000) {
            spent = spent.plus(cost);
            n++;
        }
        return n;
    }

    @ParameterizedTest
    @CsvSource({"1, 1e-6", "0.1, 1e-8", "3, 1e-5", "8, 1e-3"})
    void oneGaussianCalibratedToTheBudgetFitsExactly(double epsilon, double delta) {
        GdpFilter filter = (GdpFilter) Budget.of(epsilon, delta, AccountingMode.GDP).filter();
        // μ_B certifies (ε_B, δ_B) (up to the 1e-12-relative jitter of the δ evaluation between
        // neighbouring doubles; the filter itself used the decimals rounded down) and is tight.
        assertThat(Conversions.gdpDelta(filter.muBudget(), epsilon)).isLessThanOrEqualTo(delta * (1 + 1e-9));
        assertThat(Conversions.gdpDelta(filter.muBudget() * (1 + 1e-9), epsilon)).isGreaterThan(delta);
        assertThat(countAdmitted(filter, gaussianAt(epsilon, delta))).isEqualTo(1);
        // The capacity converts back to at most the budget.
        ApproxDp all = filter.guarantee(filter.capacity());
        assertThat(all.epsilon()).isLessThanOrEqualTo(BigDecimal.valueOf(epsilon));
        assertThat(all.delta()).isEqualByComparingTo(BigDecimal.valueOf(delta));
        assertThat(filter.guarantee(Tracks.ZERO)).isEqualTo(new ApproxDp(BigDecimal.ZERO, BigDecimal.ZERO));
    }

    @Test
    void zcdpCannotAffordTheQueryTheBudgetNamesGdpCan() {
        // The example: ε = 1, δ = 1e-6 needs ρ = 0.0280; ZCDP's cap converts to 0.0241.
        GaussianLoss query = gaussianAt(1, 1e-6);
        assertThat(query.rho().doubleValue()).isBetween(0.0279, 0.0281);
        assertThat(countAdmitted(Budget.of(1, 1e-6, AccountingMode.ZCDP).filter(), query)).isZero();
        assertThat(countAdmitted(Budget.of(1, 1e-6, AccountingMode.GDP).filter(), query)).isEqualTo(1);
    }

    @ParameterizedTest
    @CsvSource({"2", "5", "10", "100"})
    void kEqualGaussiansComposeAsSquares(int k) {
        GdpFilter filter = (GdpFilter) Budget.of(1, 1e-6, AccountingMode.GDP).filter();
        // μ² is charged with the grid margin 2²⁰/(2²⁰ − 1), i.e. μ with about 1 + 4.8e-7.
        double mu = filter.muBudget() / Math.sqrt(k) * (1 - 1e-6);
        assertThat(countAdmitted(filter, new GaussianLoss(mu, 1))).isEqualTo(k);
        assertThat(countAdmitted(filter, new GaussianLoss(filter.muBudget() / Math.sqrt(k) * (1 + 1e-5), 1)))
                .isEqualTo(k - 1);
    }

    @ParameterizedTest
    @CsvSource({"0.001", "0.1", "1", "5", "50"})
    void pureEpsilonConvertsThroughTheCornerOfItsTradeOffCurve(double epsilon) {
        double mu = GdpFilter.pureToMu(epsilon);
        double corner = 1 / (1 + Math.exp(epsilon));
        // G_μ(α*) = Φ(−μ/2) ≤ α* (sound) and only just (tight).
        assertThat(StandardNormal.logCdf(-mu / 2)).isLessThanOrEqualTo(Math.log(corner));
        assertThat(StandardNormal.logCdf(-mu / 2 * (1 - 1e-6))).isGreaterThan(Math.log(corner));
        if (epsilon <= 0.001) {
            assertThat(mu * mu / (epsilon * epsilon)).isCloseTo(Math.PI / 2, org.assertj.core.data.Offset.offset(1e-3));
        }
        // Bounded range is charged as pure ε.
        BudgetFilter filter = Budget.of(1, 1e-6, AccountingMode.GDP).filter();
        assertThat(filter.cost(BoundedRangeDp.of(epsilon))).isEqualTo(filter.cost(PureDp.of(epsilon)));
    }

    @Test
    void largestPureEpsilonFitsAndIsTight() {
        BudgetFilter filter = Budget.of(1, 1e-6, AccountingMode.GDP).filter();
        Tracks spent = filter.cost(gaussianAt(0.5, 1e-6));
        BigDecimal epsilon = filter.largestPureEpsilon(spent);
        assertThat(filter.admits(spent, filter.cost(new PureDp(epsilon)))).isTrue();
        assertThat(filter.admits(spent, filter.cost(new PureDp(epsilon.multiply(new BigDecimal("1.00001"))))))
                .isFalse();
    }

    @Test
    void refusesLossesWithoutAGdpGuarantee() {
        BudgetFilter filter = Budget.of(1, 1e-6, AccountingMode.GDP).filter();
        assertThatThrownBy(() -> filter.cost(Zcdp.of(0.01))).isInstanceOf(IncompatibleLossException.class);
        assertThatThrownBy(() -> filter.cost(ApproxZcdp.of(0.01, 1e-8))).isInstanceOf(IncompatibleLossException.class);
        assertThatThrownBy(() -> filter.cost(ApproxDp.of(0.5, 1e-8))).isInstanceOf(IncompatibleLossException.class);
        assertThatThrownBy(() -> Budget.of(1, 0, AccountingMode.GDP)).isInstanceOf(PrivacyArgumentException.class);
    }

    /**
     * How many queries of the README's worked session and of a PCA session each mode admits from
     * the same budget (ε = 1, δ = 1e-6); printed for docs/adr/0007-gdp-accounting.md.
     */
    @Test
    void sessionsAdmittedPerMode() {
        // README: COLUMN_SUMS, Gaussian with ρ = 0.005 (Δ = 2, σ = 20).
        GaussianLoss sums = new GaussianLoss(2, 20);
        int zcdpSums = countAdmitted(Budget.of(1, 1e-6, AccountingMode.ZCDP).filter(), sums);
        int gdpSums = countAdmitted(Budget.of(1, 1e-6, AccountingMode.GDP).filter(), sums);
        // BASIC charges each such query as (ε, δ) at δ = 1e-7 (10 fit the δ track).
        ApproxDp basicCharge = new ApproxDp(Decimals.exact(sums.epsilon(1e-7)), new BigDecimal("1e-7"));
        int basicSums = countAdmitted(Budget.of(1, 1e-6, AccountingMode.BASIC).filter(), basicCharge);
        // PCA: Analyze Gauss calibrated to (ε, 1e-6) per query.
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "README COLUMN_SUMS rho=0.005: ZCDP %d, GDP %d, BASIC (at delta 1e-7 each) %d%n", zcdpSums, gdpSums,
                basicSums));
        for (double eps : new double[] {1, 0.5, 0.25, 0.1}) {
            GaussianLoss pca = gaussianAt(eps, 1e-6);
            int z = countAdmitted(Budget.of(1, 1e-6, AccountingMode.ZCDP).filter(), pca);
            int g = countAdmitted(Budget.of(1, 1e-6, AccountingMode.GDP).filter(), pca);
            int b = countAdmitted(Budget.of(1, 1e-6, AccountingMode.BASIC).filter(), ApproxDp.of(eps, 1e-6));
            table.append(String.format(Locale.ROOT, "Analyze Gauss at (%s, 1e-6): ZCDP %d, GDP %d, BASIC %d%n", eps, z, g,
                    b));
            assertThat(g).isGreaterThanOrEqualTo(z);
        }
        // Composite Gaussian mechanisms through the catalogue (d = 50, B = 1, REPLACE_ONE, n = 60000):
        // their GDP charge is the Gaussian composition of their parts.
        String[][] composites = {
            {"PCA", "ANALYZE_GAUSS", "center", "true", "0.5"},
            {"PCA", "ANALYZE_GAUSS", "center", "true", "0.25"},
            {"TOP_SINGULAR_VECTORS", "NOISY_POWER", "iterations", "10", "0.5"},
            {"TOP_SINGULAR_VECTORS", "NOISY_POWER", "iterations", "10", "0.25"},
            {"TOP_SINGULAR_VECTORS", "PRIVATE_OJA", "iterations", "5", "0.25"},
        };
        for (String[] c : composites) {
            Object value = c[3].equals("true") ? Boolean.TRUE : (Object) Integer.valueOf(c[3]);
            java.util.Map<String, Object> params = java.util.Map.of(c[2], value);
            int z = admittedPlans(AccountingMode.ZCDP, c[0], c[1], params, c[4]);
            int g = admittedPlans(AccountingMode.GDP, c[0], c[1], params, c[4]);
            int b = admittedPlans(AccountingMode.BASIC, c[0], c[1], params, c[4]);
            table.append(String.format(Locale.ROOT, "%s %s=%s at (%s, 1e-6): ZCDP %d, GDP %d, BASIC %d%n", c[1], c[2],
                    c[3], c[4], z, g, b));
            assertThat(g).as("%s %s", c[1], c[4]).isGreaterThanOrEqualTo(z).isPositive();
        }
        for (double eps : new double[] {0.5, 0.1, 0.05}) {
            PureDp laplace = PureDp.of(eps);
            table.append(String.format(Locale.ROOT, "Laplace at %s: ZCDP %d, GDP %d, BASIC %d%n", eps,
                    countAdmitted(Budget.of(1, 1e-6, AccountingMode.ZCDP).filter(), laplace),
                    countAdmitted(Budget.of(1, 1e-6, AccountingMode.GDP).filter(), laplace),
                    countAdmitted(Budget.of(1, 1e-6, AccountingMode.BASIC).filter(), laplace)));
        }
        System.out.print(table);
        assertThat(zcdpSums).isEqualTo(4);
        assertThat(gdpSums).isEqualTo(5);
    }

    /** How many identical plans of a catalogue mechanism a (1, 1e-6) budget in {@code mode} admits. */
    private static int admittedPlans(AccountingMode mode, String kind, String mechanism,
            java.util.Map<String, Object> params, String epsilon) {
        io.privmat.mechanism.catalog.PublicFacts facts = new io.privmat.mechanism.catalog.PublicFacts(
                io.privmat.mechanism.catalog.DataShape.MATRIX, 50, 60_000L, 1.0,
                io.privmat.mechanism.NeighbouringRelation.REPLACE_ONE, mode, null);
        java.util.Map<String, Object> all = new java.util.HashMap<>(params);
        all.put("k", 1);
        io.privmat.mechanism.catalog.Plan plan = io.privmat.mechanism.catalog.MechanismCatalog.standard().plan(kind,
                mechanism, new io.privmat.mechanism.catalog.QueryBudget(new BigDecimal(epsilon), new BigDecimal("1e-6"), null),
                io.privmat.mechanism.catalog.RequestParams.of(all), facts);
        BudgetFilter filter = Budget.of(1, 1e-6, mode).filter();
        try {
            return countAdmitted(filter, plan.chargedLoss());
        } catch (IncompatibleLossException e) {
            return 0;
        }
    }

    @Test
    void aGaussianCompositionIsChargedAsOneGaussianOfTheRootSumSquare() {
        GdpFilter filter = (GdpFilter) Budget.of(1, 1e-6, AccountingMode.GDP).filter();
        // Ten steps of σ = √10 compose to exactly the μ of one step of σ = 1 (Δ = 0.25).
        GaussianLoss step = new GaussianLoss(0.25, Math.sqrt(10));
        BigDecimal rho = BigDecimal.ZERO;
        for (int i = 0; i < 10; i++) {
            rho = rho.add(step.rho());
        }
        GaussianComposition composed = new GaussianComposition(rho, 10);
        BigDecimal single = filter.cost(new GaussianLoss(0.25, 1)).rho();
        assertThat(filter.cost(composed).rho().doubleValue()).isCloseTo(single.doubleValue(),
                org.assertj.core.data.Percentage.withPercentage(1e-12));
        assertThat(composed.mu()).isCloseTo(0.25, org.assertj.core.data.Offset.offset(1e-15));
        // The GDP charge is μ²/2 with the grid margin 2²⁰/(2²⁰ − 1), never below ρ; ZCDP charges ρ itself.
        assertThat(filter.cost(composed).rho()).isGreaterThan(rho);
        assertThat(filter.cost(composed).rho().subtract(rho).doubleValue()).isCloseTo(rho.doubleValue() / ((1 << 20) - 1),
                org.assertj.core.data.Percentage.withPercentage(1e-9));
        assertThat(Budget.of(1, 1e-6, AccountingMode.ZCDP).filter().cost(composed).rho()).isEqualByComparingTo(rho);
        assertThatThrownBy(() -> Budget.of(1, 1e-6, AccountingMode.BASIC).filter().cost(composed))
                .isInstanceOf(IncompatibleLossException.class);
    }
}
