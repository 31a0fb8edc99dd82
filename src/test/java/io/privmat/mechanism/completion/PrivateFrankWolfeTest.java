package io.privmat.mechanism.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.UserRatings;
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
                p.nuclearRadius(), 5, p.schedule(), p.beta(), p.lanczosSteps(), p.gradientClip(), p.ridge());
        assertThat(PrivateFrankWolfeMechanism.sensitivity(ar)).isCloseTo(4 * l * l, within(1e-6));
        // RATING is calibrated as a replaced user.
        FrankWolfeParameters rating = new FrankWolfeParameters(p.domain(), RatingsRelation.RATING, p.nuclearRadius(), 5,
                p.schedule(), p.beta(), p.lanczosSteps(), p.gradientClip(), p.ridge());
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
        assertThatThrownBy(() -> params(3).withGradientClip(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> params(3).withRidge(-1)).isInstanceOf(IllegalArgumentException.class);
        // The paper's schedules need a radius; the fully corrective one needs none.
        assertThatThrownBy(() -> FrankWolfeParameters.of(SMALL.domain(), RatingsRelation.USER, Double.NaN, 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(FrankWolfeParameters.defaults(SMALL.domain(), RatingsRelation.USER, 1).nuclearRadius()).isNaN();
        assertThat(params(4).stepSize(1)).isEqualTo(0.25);
        assertThat(params(4).withSchedule(FrankWolfeParameters.StepSchedule.STANDARD).stepSize(1)).isEqualTo(1.0);
    }

    static FrankWolfeParameters corrective(int t, double clip) {
        return FrankWolfeParameters.of(SMALL.domain(), RatingsRelation.USER, 1, t)
                .withSchedule(FrankWolfeParameters.StepSchedule.FULLY_CORRECTIVE).withGradientClip(clip);
    }

    @Test
    void theClipSetsEveryReleasesSensitivity() {
        double l = SMALL.domain().rowBound();
        // C below L: every release, the first included, is calibrated to C² (√2·C² replacing a user).
        FrankWolfeParameters quarter = params(5).withGradientClip(l / 4);
        assertThat(PrivateFrankWolfeMechanism.firstSensitivity(quarter)).isCloseTo(Math.sqrt(2) * l * l / 16,
                within(1e-9));
        assertThat(PrivateFrankWolfeMechanism.sensitivity(quarter)).isCloseTo(Math.sqrt(2) * l * l / 16, within(1e-9));
        // C between L and 2L: the first release keeps its bound L; the paper's later releases get C instead of 2L.
        FrankWolfeParameters wide = params(5).withGradientClip(1.5 * l);
        assertThat(PrivateFrankWolfeMechanism.firstSensitivity(wide)).isCloseTo(Math.sqrt(2) * l * l, within(1e-9));
        assertThat(PrivateFrankWolfeMechanism.sensitivity(wide)).isCloseTo(Math.sqrt(2) * 2.25 * l * l, within(1e-9));
        // A fully corrective residual is never longer than the ratings it fits: its bound is L, not 2L.
        assertThat(PrivateFrankWolfeMechanism.sensitivity(corrective(5, 1.5 * l))).isCloseTo(Math.sqrt(2) * l * l,
                within(1e-9));
        assertThat(PrivateFrankWolfeMechanism.sensitivity(corrective(5, Double.POSITIVE_INFINITY)))
                .isCloseTo(Math.sqrt(2) * l * l, within(1e-9));
        // σ follows the sensitivity, and the whole run still spends exactly its budget.
        PrivateFrankWolfeMechanism clipped = PrivateFrankWolfeMechanism.forApproxDp(quarter, 1, 1e-6);
        PrivateFrankWolfeMechanism paper = PrivateFrankWolfeMechanism.forApproxDp(params(5), 1, 1e-6);
        assertThat(clipped.sigma()).isCloseTo(paper.sigma() / 64, within(paper.sigma() * 1e-6));
        assertThat(clipped.firstSigma()).isCloseTo(paper.firstSigma() / 16, within(paper.sigma() * 1e-6));
        assertThat(clipped.privacyLoss().delta(1)).isLessThanOrEqualTo(1e-6).isGreaterThan(0.5e-6);
    }

    @Test
    void fullyCorrectivePredictReplaysExactlyWhatTheMechanismComputed() {
        PrivateFrankWolfeMechanism m = PrivateFrankWolfeMechanism.forRho(corrective(4, 1), 5);
        RatingsMatrix data = RatingsMatrix.load(SMALL.train(), SMALL.domain());
        PrivateFrankWolfeMechanism.Run run = m.run(data, TestNoiseSources.seeded(9));
        FrankWolfeRelease release = run.release();
        // The released directions are orthonormal (the zero ones excepted).
        int n = SMALL.domain().items();
        for (int a = 1; a <= 4; a++) {
            for (int b = 1; b <= 4; b++) {
                double dot = TopEigen.dot(release.direction(a), release.direction(b));
                // Orthogonal; each of norm 1, or 0 when noise-dominated.
                assertThat(a != b ? Math.abs(dot) : Math.min(dot, Math.abs(dot - 1))).isLessThan(1e-9);
            }
        }
        for (int u = 0; u < data.users(); u++) {
            UserRatings user = data.user(u);
            double[] observed = new double[user.count()];
            release.replay(user, observed);
            assertArrayEquals(Arrays.copyOfRange(run.observed(), data.start(u), data.end(u)), observed);
        }
        assertThat(n).isEqualTo(40);
    }

    @Test
    void noiseDominatedDirectionsAreReleasedAsZeroAndUnused() {
        // Rank one, a strong budget: the first direction carries the data, the later ones are within the noise.
        FrankWolfeRelease strong = PrivateFrankWolfeMechanism.forRho(corrective(4, 1), 50).release(SMALL.train(),
                TestNoiseSources.seeded(4));
        assertThat(TopEigen.norm(strong.direction(1))).isCloseTo(1, within(1e-12));
        assertThat(strong.lambdaHat()[0]).isGreaterThan(strong.lambdaPrime()[0] - strong.lambdaHat()[0]);
        for (int t = 2; t <= 4; t++) {
            assertThat(strong.direction(t)).containsOnly(0.0);
            // Zero because λ̂_t² ≤ b_t: λ̂_t ≤ √b_t = λ̂′_t − λ̂_t.
            assertThat(strong.lambdaHat()[t - 1]).isLessThanOrEqualTo(strong.lambdaPrime()[t - 1]
                    - strong.lambdaHat()[t - 1] + 1e-9);
        }
        assertThat(SMALL.rmse(strong)).isLessThan(0.3 * SMALL.trivialRmse());
        // A tiny budget: every direction is noise-dominated, none is used, and every user gets the midpoint.
        FrankWolfeRelease none = PrivateFrankWolfeMechanism.forApproxDp(corrective(3, 1), 0.01, 1e-6)
                .release(SMALL.train(), TestNoiseSources.seeded(4));
        assertThat(none.directions()).containsOnly(0.0);
        assertThat(SMALL.rmse(none)).isEqualTo(SMALL.trivialRmse());
    }

    @Test
    void defaultsFollowTheirPublicRules() {
        RatingsDomain films = new RatingsDomain(100, 1, 5, 30);
        assertThat(FrankWolfeParameters.defaultGradientClip(films)).isCloseTo(2 * Math.sqrt(30) / 4, within(1e-12));
        // T = min(⌈s/2⌉, 2 + ⌈8μ⌉), μ from the budget.
        int[] expected = {3, 3, 4, 6, 11};
        double[] epsilons = {0.1, 0.5, 1, 2, 5};
        for (int k = 0; k < epsilons.length; k++) {
            assertThat(FrankWolfeParameters.defaultIterations(films, FrankWolfeParameters.mu(epsilons[k], 1e-6)))
                    .as("ε = %s", epsilons[k]).isEqualTo(expected[k]);
        }
        assertThat(FrankWolfeParameters.defaultIterations(films, FrankWolfeParameters.mu(0.5))).isEqualTo(10);
        assertThat(FrankWolfeParameters.defaultIterations(films, 1e6)).isEqualTo(15);
        assertThat(FrankWolfeParameters.defaultIterations(new RatingsDomain(4, 1, 5, 3), 1e6)).isEqualTo(2);
        assertThat(FrankWolfeParameters.defaultIterations(new RatingsDomain(6, 1, 5, 1), 1e6)).isEqualTo(1);
        FrankWolfeParameters d = FrankWolfeParameters.defaults(films, RatingsRelation.USER, FrankWolfeParameters.mu(2, 1e-6));
        assertThat(d.schedule()).isEqualTo(FrankWolfeParameters.StepSchedule.FULLY_CORRECTIVE);
        assertThat(d.iterations()).isEqualTo(6);
        assertThat(d.clip(0)).isEqualTo(d.clip(3)).isEqualTo(FrankWolfeParameters.defaultGradientClip(films));
    }

    @Test
    void theDefaultsBeatTheGlobalMeanOnALowRankMatrix() {
        // 8 000 users × 40 items, rank 2 on a 1..5 scale, 5–20 ratings each; ε = 2, δ = 1e-6, noise seed 1.
        CompletionFixtures.Split s = CompletionFixtures.lowRank(8000, 40, 2, 5, 20, 2, 3);
        FrankWolfeParameters d = FrankWolfeParameters.defaults(s.domain(), RatingsRelation.USER,
                FrankWolfeParameters.mu(2, 1e-6));
        double fw = s.rmse(PrivateFrankWolfeMechanism.forApproxDp(d, 2, 1e-6).release(s.train(),
                TestNoiseSources.seeded(1)));
        assertThat(fw).as("defaults against the global mean %s", s.globalMeanRmse()).isLessThan(0.5 * s.globalMeanRmse());
    }
}
