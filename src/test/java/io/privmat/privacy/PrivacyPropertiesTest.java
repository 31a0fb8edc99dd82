package io.privmat.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded randomized property tests (JUnit, no jqwik). Each test draws its cases from a
 * {@link SplittableRandom} with a fixed seed, so a failure reproduces exactly.
 */
class PrivacyPropertiesTest {

    private static final int CASES = 300;

    private static double logUniform(SplittableRandom random, double low, double high) {
        return Math.exp(Math.log(low) + random.nextDouble() * (Math.log(high) - Math.log(low)));
    }

    @Test
    void gaussianCostIsMonotoneInSensitivityAndSigma() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < CASES; i++) {
            double delta = logUniform(random, 1e-3, 1e3);
            double sigma = logUniform(random, 1e-3, 1e3);
            double factor = 1 + logUniform(random, 1e-6, 10);
            double rho = Conversions.gaussianToZcdp(delta, sigma);
            assertThat(Conversions.gaussianToZcdp(delta * factor, sigma)).isGreaterThan(rho);
            assertThat(Conversions.gaussianToZcdp(delta, sigma * factor)).isLessThan(rho);
            assertThat(rho).isGreaterThanOrEqualTo(delta * delta / (2 * sigma * sigma));
        }
    }

    @Test
    void cksEpsilonIsMonotoneAndNeverAboveBunSteinke() {
        SplittableRandom random = new SplittableRandom(12);
        for (int i = 0; i < CASES; i++) {
            double rho = logUniform(random, 1e-5, 20);
            double delta = logUniform(random, 1e-12, 1e-2);
            double eps = Conversions.zcdpToEpsilonCks(rho, delta);
            assertThat(eps).isLessThanOrEqualTo(Conversions.zcdpToEpsilonBunSteinke(rho, delta));
            assertThat(Conversions.zcdpToEpsilonCks(rho * 1.01, delta)).isGreaterThanOrEqualTo(eps);
            assertThat(Conversions.zcdpToEpsilonCks(rho, delta * 0.9)).isGreaterThanOrEqualTo(eps);
            // Consistency with the δ form of the same conversion: δ(ρ, ε_CKS(ρ, δ)) ≤ δ (up to 1e-9 rel).
            assertThat(Conversions.zcdpToDeltaCks(rho, eps)).isLessThanOrEqualTo(delta * (1 + 1e-9));
            assertThat(Conversions.zcdpToDeltaCks(rho, eps * 1.01 + 1e-6))
                    .isLessThanOrEqualTo(Conversions.zcdpToDeltaCks(rho, eps));
        }
    }

    @Test
    void budgetInversionRoundTripsAndIsConservative() {
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < CASES; i++) {
            double epsilon = logUniform(random, 1e-2, 100);
            double delta = logUniform(random, 1e-12, 1e-2);
            RhoBudget budget = Conversions.largestZcdpRho(epsilon, delta);
            double back = Conversions.zcdpToEpsilonCks(budget.rho(), delta);
            assertThat(back).as("ε=%s δ=%s", epsilon, delta).isLessThanOrEqualTo(epsilon);
            assertThat(back).as("ε=%s δ=%s", epsilon, delta).isGreaterThan(epsilon * (1 - 1e-6));
        }
    }

    /** zCDP conversions are never optimistic against the exact GDP curve of a Gaussian. */
    @Test
    void conversionsNeverBeatTheExactGaussianCurve() {
        SplittableRandom random = new SplittableRandom(14);
        for (int i = 0; i < CASES; i++) {
            GaussianLoss loss = new GaussianLoss(logUniform(random, 0.01, 10), logUniform(random, 0.01, 100));
            double delta = logUniform(random, 1e-12, 1e-2);
            int k = 1 + random.nextInt(200);
            double exact = Conversions.gdpEpsilon(loss.mu() * Math.sqrt(k), delta);
            double rho = k * loss.rho().doubleValue();
            assertThat(Conversions.zcdpToEpsilonCks(rho, delta)).isGreaterThanOrEqualTo(exact);
            assertThat(Conversions.zcdpToEpsilonBunSteinke(rho, delta)).isGreaterThanOrEqualTo(exact);
            // And the exact curve is consistent with itself: δ(ε(δ)) ≤ δ. Both sides are upper
            // bounds evaluated in floating point, so allow their evaluation margin (1e-9 relative).
            assertThat(Conversions.gdpDelta(loss.mu() * Math.sqrt(k), exact)).isLessThanOrEqualTo(delta * (1 + 1e-9));
        }
    }

    @Test
    void analyticSigmaIsMonotone() {
        SplittableRandom random = new SplittableRandom(15);
        for (int i = 0; i < 100; i++) {
            double epsilon = logUniform(random, 1e-2, 50);
            double delta = logUniform(random, 1e-12, 1e-2);
            double sigma = GaussianCalibration.analyticSigma(epsilon, delta, 1);
            assertThat(GaussianCalibration.analyticSigma(epsilon * 1.05, delta, 1)).isLessThan(sigma);
            assertThat(GaussianCalibration.analyticSigma(epsilon, delta * 2, 1)).isLessThan(sigma);
            assertThat(Conversions.gdpDelta(1 / sigma, epsilon)).isLessThanOrEqualTo(delta * (1 + 1e-9));
            // Tight: 0.1 % less noise would violate (ε, δ).
            assertThat(Conversions.gdpDelta(1 / (sigma * 0.999), epsilon)).isGreaterThan(delta);
        }
    }

    private static PrivacyLoss randomLoss(SplittableRandom random, AccountingMode mode) {
        int kind = random.nextInt(mode == AccountingMode.ZCDP ? 6 : mode == AccountingMode.BASIC ? 3 : 2);
        double eps = logUniform(random, 1e-3, 2);
        return switch (kind) {
            case 0 -> PureDp.of(eps);
            case 1 -> BoundedRangeDp.of(eps);
            case 2 -> ApproxDp.of(eps, logUniform(random, 1e-10, 1e-5));
            case 3 -> new GaussianLoss(1, logUniform(random, 0.5, 200));
            case 4 -> Zcdp.of(logUniform(random, 1e-6, 0.5));
            default -> ApproxZcdp.of(logUniform(random, 1e-6, 0.5), logUniform(random, 1e-10, 1e-6));
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"ZCDP", "BASIC", "PURE"})
    void filtersNeverAdmitPastTheBudget(String modeName) {
        AccountingMode mode = AccountingMode.valueOf(modeName);
        SplittableRandom random = new SplittableRandom(16 + mode.ordinal());
        for (int trial = 0; trial < 60; trial++) {
            double epsilon = logUniform(random, 0.05, 20);
            double delta = mode == AccountingMode.PURE ? 0 : logUniform(random, 1e-9, 1e-3);
            Budget budget = Budget.of(epsilon, delta, mode);
            BudgetFilter filter = budget.filter();
            Tracks spent = Tracks.ZERO;
            int admitted = 0;
            for (int step = 0; step < 400; step++) {
                Tracks cost = filter.cost(randomLoss(random, mode));
                if (filter.admits(spent, cost)) {
                    spent = spent.plus(cost);
                    admitted++;
                }
                assertThat(spent.fitsWithin(filter.capacity())).isTrue();
                ApproxDp guarantee = filter.guarantee(spent);
                assertThat(guarantee.epsilon()).isLessThanOrEqualTo(budget.epsilon());
                assertThat(guarantee.delta()).isLessThanOrEqualTo(budget.delta());
                assertThat(spent.plus(filter.remaining(spent))).isEqualTo(filter.capacity());
            }
            assertThat(admitted).isPositive();
        }
    }

    @Test
    void millionTinyChargesNeverExceedTheCap() {
        BudgetFilter filter = Budget.of(1, 1e-6, AccountingMode.ZCDP).filter();
        Tracks cost = filter.cost(Zcdp.of(filter.capacity().rho().doubleValue() / 1_000_000 * 1.0000001));
        Tracks spent = Tracks.ZERO;
        int admitted = 0;
        for (int i = 0; i < 1_100_000; i++) {
            if (filter.admits(spent, cost)) {
                spent = spent.plus(cost);
                admitted++;
            }
        }
        assertThat(spent.rho()).isLessThanOrEqualTo(filter.capacity().rho());
        assertThat(spent.plus(cost).rho()).isGreaterThan(filter.capacity().rho());
        assertThat(admitted).isLessThan(1_000_000).isGreaterThan(999_000);
    }

    @Test
    void spentAmountsOnlyGrow() {
        SplittableRandom random = new SplittableRandom(17);
        BudgetFilter filter = Budget.of(5, 1e-5, AccountingMode.ZCDP).filter();
        Tracks spent = Tracks.ZERO;
        List<java.math.BigDecimal> epsilons = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Tracks cost = filter.cost(randomLoss(random, AccountingMode.ZCDP));
            if (filter.admits(spent, cost)) {
                Tracks next = spent.plus(cost);
                assertThat(next.rho()).isGreaterThanOrEqualTo(spent.rho());
                assertThat(next.delta()).isGreaterThanOrEqualTo(spent.delta());
                assertThat(next.fitsWithin(filter.capacity())).isTrue();
                spent = next;
                epsilons.add(filter.guarantee(spent).epsilon());
            }
        }
        assertThat(epsilons).isSorted();
    }
}
