package io.privmat.mechanism.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Regression from a release: estimates, ridge rules and the stated intervals. The coverage checks are
 * the bounded versions (60 seeded releases per case; the benchmark runs 400): a simultaneous bound at
 * 95% must hold on at least 95% of runs minus a binomial allowance, exact t intervals must cover near
 * 95%.
 */
class LinearRegressionTest {

    static final int D = 4;
    static final double[] BETA = {1.0, -2.0, 0.5};
    static final double[][] ROWS = Releases.regressionRows(20_000, D, BETA, 11);
    static final double[] GRAM = Releases.gram(ROWS);
    static final int[] PREDICTORS = {0, 1, 2};

    @Test
    void tailQuantilesMatchReferenceValues() {
        assertThat(Tails.normalUpper(0.025)).isCloseTo(1.959963984540054, within(1e-9));
        assertThat(Tails.studentUpper(10, 0.025)).isCloseTo(2.228138851986274, within(1e-9));
        assertThat(Tails.studentUpper(3, 0.005)).isCloseTo(5.840909309733350, within(1e-8));
        assertThat(Tails.logBinomial(10, 3)).isCloseTo(Math.log(120), within(1e-12));
        assertThat(Tails.logBinomial(784, 0)).isZero();
    }

    @Test
    void analyzeGaussDefaultRidgeIsAdaptiveAndZeroOnWellConditionedData() {
        SecondMoment m = Releases.release(Releases.Kind.ANALYZE_GAUSS, GRAM, D, 1.0, 1);
        RegressionResult r = LinearRegression.fit(m, 3, PREDICTORS, null, 0.95);
        // λ_min(XᵀX) ≈ 20000·0.01 = 200 here, above the noise's 99% spectral bound: no ridge needed.
        double eta = m.noise().envelope(3, LinearRegression.RIDGE_FAILURE).additive();
        assertThat(eta).isLessThan(150);
        assertThat(r.ridge()).isZero();
        assertThat(r.intervals()).isEqualTo(RegressionResult.Intervals.SIMULTANEOUS_BOUND);
        double[] ols = Releases.ridgeTruth(GRAM, D, 0);
        for (int j = 0; j < 3; j++) {
            assertThat(r.lower()[j]).isLessThanOrEqualTo(r.estimate()[j]);
            assertThat(r.upper()[j]).isGreaterThanOrEqualTo(r.estimate()[j]);
            assertThat(r.estimate()[j]).isCloseTo(ols[j], within(r.upper()[j] - r.estimate()[j]));
        }
        // A tiny dataset: the ridge turns on and makes the regularised matrix's smallest eigenvalue η.
        double[] small = Releases.gram(Releases.regressionRows(300, D, BETA, 12));
        SecondMoment sm = Releases.release(Releases.Kind.ANALYZE_GAUSS, small, D, 1.0, 2);
        RegressionResult rs = LinearRegression.fit(sm, 3, PREDICTORS, null, 0.95);
        assertThat(rs.ridge()).isPositive();
        assertThat(rs.upper()[0]).as("finite thanks to the ridge's prior bound").isLessThan(Double.POSITIVE_INFINITY);
    }

    @Test
    void wishartDefaultRidgeIsTheNoiseMeanAndJlRefusesAnotherRidge() {
        SecondMoment w = Releases.release(Releases.Kind.WISHART, GRAM, D, 1.0, 3);
        RegressionResult r = LinearRegression.fit(w, 3, PREDICTORS, null, 0.95);
        assertThat(r.ridge()).isEqualTo(w.noise().shift());
        // The estimate is Ĉ_SS⁻¹ĉ: the released block itself.
        double[] block = new double[9];
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                block[i * 3 + j] = w.matrix()[i * D + j];
            }
            c[i] = w.matrix()[i * D + 3];
        }
        assertThat(r.estimate()).containsExactly(LinearRegression.Inverse.of(block, 3).times(c), within(1e-9));
        SecondMoment jl = Releases.release(Releases.Kind.JL, GRAM, D, 1.0, 4);
        assertThatThrownBy(() -> LinearRegression.fit(jl, 3, PREDICTORS, 5.0, 0.95))
                .isInstanceOf(AnalyticsArgumentException.class).extracting("parameter").isEqualTo("ridge");
        RegressionResult exact = LinearRegression.fit(jl, 3, PREDICTORS, null, 0.95);
        assertThat(exact.intervals()).isEqualTo(RegressionResult.Intervals.EXACT_T);
        assertThat(exact.ridge()).isEqualTo(jl.noise().shift());
    }

    @Test
    void requestedRidgeChangesTheEstimand() {
        SecondMoment m = Releases.release(Releases.Kind.ANALYZE_GAUSS, GRAM, D, 1.0, 5);
        RegressionResult r = LinearRegression.fit(m, 3, PREDICTORS, 5000.0, 0.95);
        assertThat(r.ridge()).isEqualTo(5000.0);
        assertThat(r.ridgeRule()).isEqualTo("requested");
        double[] truth = Releases.ridgeTruth(GRAM, D, 5000);
        double[] ols = Releases.ridgeTruth(GRAM, D, 0);
        for (int j = 0; j < 3; j++) {
            assertThat(truth[j]).isBetween(r.lower()[j], r.upper()[j]);
        }
        // Heavy shrinkage: the ridge truth is far from OLS, and the estimate follows the ridge truth.
        assertThat(Math.abs(r.estimate()[1] - truth[1])).isLessThan(Math.abs(r.estimate()[1] - ols[1]));
    }

    @Test
    void invalidRequestsNameTheirParameter() {
        SecondMoment m = Releases.release(Releases.Kind.ANALYZE_GAUSS, GRAM, D, 1.0, 6);
        assertThatThrownBy(() -> LinearRegression.fit(m, 4, PREDICTORS, null, 0.95)).extracting("parameter")
                .isEqualTo("response");
        assertThatThrownBy(() -> LinearRegression.fit(m, 3, new int[] {0, 3}, null, 0.95)).extracting("parameter")
                .isEqualTo("predictors[1]");
        assertThatThrownBy(() -> LinearRegression.fit(m, 3, new int[] {0, 0}, null, 0.95)).extracting("parameter")
                .isEqualTo("predictors[1]");
        assertThatThrownBy(() -> LinearRegression.fit(m, 3, new int[0], null, 0.95)).extracting("parameter")
                .isEqualTo("predictors");
        assertThatThrownBy(() -> LinearRegression.fit(m, 3, PREDICTORS, -1.0, 0.95)).extracting("parameter")
                .isEqualTo("ridge");
        assertThatThrownBy(() -> LinearRegression.fit(m, 3, PREDICTORS, null, 0.2)).extracting("parameter")
                .isEqualTo("level");
    }

    /** Coverage over 60 seeded releases per mechanism (bounded; 400 in the benchmark). */
    @ParameterizedTest
    @EnumSource(Releases.Kind.class)
    void intervalsCoverTheirEstimand(Releases.Kind kind) {
        int runs = 60;
        int covered = 0;
        int[] approxCovered = new int[3];
        for (int seed = 0; seed < runs; seed++) {
            SecondMoment m = Releases.release(kind, GRAM, D, 1.0, 1000 + seed);
            RegressionResult r = LinearRegression.fit(m, 3, PREDICTORS, null, 0.95);
            double[] truth = Releases.ridgeTruth(GRAM, D, r.ridge());
            boolean all = true;
            for (int j = 0; j < 3; j++) {
                all &= truth[j] >= r.lower()[j] && truth[j] <= r.upper()[j];
                if (truth[j] >= r.approximateLower()[j] && truth[j] <= r.approximateUpper()[j]) {
                    approxCovered[j]++;
                }
            }
            covered += all ? 1 : 0;
        }
        if (kind == Releases.Kind.JL) {
            // Exact 95% per coefficient: 60 runs cover at least 51 with probability > 0.99.
            for (int j = 0; j < 3; j++) {
                assertThat(approxCovered[j]).as("coefficient %d", j).isBetween(51, 60);
            }
        } else {
            // A conservative bound: every run should be covered.
            assertThat(covered).isGreaterThanOrEqualTo(58);
            for (int j = 0; j < 3; j++) {
                assertThat(approxCovered[j]).as("approximate, coefficient %d", j).isGreaterThanOrEqualTo(48);
            }
        }
    }
}
