package io.privmat.mechanism.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.GaussianCalibration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrivateFrankWolfeTest {

    static final CompletionFixtures.Split SMALL = CompletionFixtures.rankOne(3000, 40, 12, 4, 11);

    static FrankWolfeParameters params(int t) {
        return FrankWolfeParameters.of(SMALL.domain(), RatingsRelation.USER, 2 * Math.sqrt(3000 * 40) / 3, t);
    }

    @Test
    void calibrationIsTheTightGaussianOnTheComposedMu() {
        FrankWolfeParameters p = params(5);
        double l = SMALL.domain().rowBound();
        assertThat(PrivateFrankWolfeMechanism.sensitivity(p)).isCloseTo(4 * Math.sqrt(2) * l * l, within(1e-6));
        FrankWolfeParameters ar = new FrankWolfeParameters(p.domain(), RatingsRelation.USER_ADD_REMOVE,
                p.nuclearRadius(), 5, p.schedule(), p.beta(), p.lanczosSteps());
        assertThat(PrivateFrankWolfeMechanism.sensitivity(ar)).isCloseTo(4 * l * l, within(1e-6));
        // RATING is calibrated as a replaced user.
        FrankWolfeParameters rating = new FrankWolfeParameters(p.domain(), RatingsRelation.RATING, p.nuclearRadius(), 5,
                p.schedule(), p.beta(), p.lanczosSteps());
        assertThat(PrivateFrankWolfeMechanism.sensitivity(rating)).isEqualTo(PrivateFrankWolfeMechanism.sensitivity(p));
        PrivateFrankWolfeMechanism m = PrivateFrankWolfeMechanism.forApproxDp(p, 1, 1e-6);
        double expected = PrivateFrankWolfeMechanism.sensitivity(p) * Math.sqrt(5)
                * GaussianCalibration.analyticSigma(1, 1e-6, 1);
        assertThat(m.sigma()).isCloseTo(expected, within(expected * 2e-3));
        // The first release (Y⁰ = 0) has a quarter of the sensitivity, √2·L², and a quarter of the σ.
        assertThat(PrivateFrankWolfeMechanism.firstSensitivity(p)).isCloseTo(Math.sqrt(2) * l * l, within(1e-6));
        assertThat(m.firstSigma()).isCloseTo(expected / 4, within(expected * 1e-3));
        // The whole run is (1, 1e-6)-DP, and not by a wide margin (the calibration is tight).
        assertThat(m.privacyLoss().delta(1)).isLessThanOrEqualTo(1e-6).isGreaterThan(0.5e-6);
        // The paper's σ = L²√(64 T ln(1/δ))/ε is larger.
        assertThat(l * l * Math.sqrt(64 * 5 * Math.log(1e6))).isGreaterThan(m.sigma());
        PrivateFrankWolfeMechanism z = PrivateFrankWolfeMechanism.forRho(p, 0.5);
        assertThat(z.privacyLoss().rho().doubleValue()).isLessThanOrEqualTo(0.5).isGreaterThan(0.499);
    }

    @Test
    void seededRunsReproduceAndSeedsMatter() {
        PrivateFrankWolfeMechanism m = PrivateFrankWolfeMechanism.forRho(params(3), 2);
        FrankWolfeRelease a = m.release(SMALL.train(), TestNoiseSources.seeded(5));
        FrankWolfeRelease b = m.release(SMALL.train(), TestNoiseSources.seeded(5));
        FrankWolfeRelease c = m.release(SMALL.train(), TestNoiseSources.seeded(6));
        assertArrayEquals(a.directions(), b.directions());
        assertArrayEquals(a.lambdaPrime(), b.lambdaPrime());
        assertThat(Arrays.equals(a.directions(), c.directions())).isFalse();
    }

    @Test
    void predictReplaysExactlyWhatTheMechanismComputed() {
        PrivateFrankWolfeMechanism m = PrivateFrankWolfeMechanism.forRho(params(4), 5);
        RatingsMatrix data = RatingsMatrix.load(SMALL.train(), SMALL.domain());
        PrivateFrankWolfeMechanism.Run run = m.run(data, TestNoiseSources.seeded(9));
        for (int u = 0; u < data.users(); u++) {
            UserRatings user = data.user(u);
            double[] observed = new double[user.count()];
            run.release().replay(user, observed);
            assertArrayEquals(Arrays.copyOfRange(run.observed(), data.start(u), data.end(u)), observed);
        }
        // The owner's rows from the same run equal predict(), whatever the order of the user's items.
        List<double[]> rows = new ArrayList<>();
        FrankWolfeRelease release = m.release(SMALL.train(), TestNoiseSources.seeded(9), (user, row) -> rows.add(row));
        assertArrayEquals(run.release().directions(), release.directions());
        assertThat(rows).hasSize(3000);
        for (int u = 0; u < 3000; u += 97) {
            UserRatings user = data.user(u);
            int c = user.count();
            int[] items = new int[c];
            double[] ratings = new double[c];
            for (int k = 0; k < c; k++) {
                items[c - 1 - k] = user.items()[k];
                ratings[c - 1 - k] = user.centred()[k] + SMALL.domain().centre();
            }
            assertArrayEquals(rows.get(u), release.predict(items, ratings));
        }
    }

    @Test
    void lanczosFindsTheTopEigenpair() {
        int n = 80;
        SplittableRandom r = new SplittableRandom(3);
        double[] a = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                double x = r.nextGaussian();
                a[i * n + j] = x;
                a[j * n + i] = x;
            }
        }
        a[0] += 40;
        SymmetricEigen e = LinearAlgebra.eigen(a, n);
        double[] start = new double[n];
        Arrays.fill(start, 1);
        TopEigen.Pair p = TopEigen.lanczos((x, out) -> Grams.multiplyDense(a, n, x, out), n, 30, start);
        assertThat(p.value()).isCloseTo(e.values()[0], within(1e-8));
        double cos = 0;
        for (int i = 0; i < n; i++) {
            cos += p.vector()[i] * e.vectors()[i * n];
        }
        assertThat(Math.abs(cos)).isGreaterThan(1 - 1e-10);
    }

    @Test
    void lambdaPrimeBoundsTheTopSingularValueOfEachGradient() {
        FrankWolfeParameters p = params(4);
        PrivateFrankWolfeMechanism m = PrivateFrankWolfeMechanism.forRho(p, 1);
        RatingsMatrix data = RatingsMatrix.load(SMALL.train(), SMALL.domain());
        PrivateFrankWolfeMechanism.Run run = m.run(data, TestNoiseSources.seeded(13));
        FrankWolfeRelease release = run.release();
        // Replay the run, computing the exact σ₁ of the gradient each broadcast was made for.
        double[] y = new double[data.ratings()];
        int n = SMALL.domain().items();
        for (int t = 1; t <= 4; t++) {
            double[] w = Grams.gradientGram(data, y);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < i; j++) {
                    w[i * n + j] = w[j * n + i];
                }
            }
            double sigma1 = Math.sqrt(LinearAlgebra.eigen(w, n).values()[0]);
            assertThat(release.lambdaPrime()[t - 1]).isGreaterThanOrEqualTo(sigma1);
            double[] v = release.direction(t);
            for (int u = 0; u < data.users(); u++) {
                FrankWolfeLocal.step(y, null, data.items(), data.values(), data.start(u), data.end(u), v,
                        release.lambdaPrime()[t - 1], p.stepSize(t), p.nuclearRadius(), p.domain().rowBound());
            }
        }
        assertArrayEquals(run.observed(), y);
    }

    @Test
    void aLargeBudgetCompletesTheMatrix() {
        double trivial = SMALL.trivialRmse();
        FrankWolfeRelease reference = References.frankWolfe(SMALL.train(), params(10));
        FrankWolfeRelease released = PrivateFrankWolfeMechanism.forRho(params(3), 1e4).release(SMALL.train(),
                TestNoiseSources.seeded(2));
        assertThat(SMALL.rmse(reference)).isLessThan(0.3 * trivial);
        assertThat(SMALL.rmse(released)).isLessThan(0.6 * trivial);
        // A tiny budget: noise dominates, and the answer stays near the midpoint (not worse than 10% above it).
        FrankWolfeRelease noisy = PrivateFrankWolfeMechanism.forApproxDp(params(3), 0.1, 1e-6).release(SMALL.train(),
                TestNoiseSources.seeded(2));
        assertThat(SMALL.rmse(noisy)).isLessThan(1.1 * trivial);
    }

    @Test
    void parametersAreChecked() {
        RatingsDomain big = new RatingsDomain(FrankWolfeParameters.MAX_ITEMS + 1, 0, 1, 10);
        assertThatThrownBy(() -> FrankWolfeParameters.of(big, RatingsRelation.USER, 1, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FrankWolfeParameters.of(SMALL.domain(), RatingsRelation.USER, 0, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FrankWolfeParameters.of(SMALL.domain(), RatingsRelation.USER, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(params(4).stepSize(1)).isEqualTo(0.25);
        assertThat(params(4).withSchedule(FrankWolfeParameters.StepSchedule.STANDARD).stepSize(1)).isEqualTo(1.0);
    }
}
