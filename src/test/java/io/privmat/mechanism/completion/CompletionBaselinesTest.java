package io.privmat.mechanism.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.privmat.mechanism.catalog.InMemoryRatings;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.UserRatings;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.GaussianCalibration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Private SVD, private ALS, and Hardt–Roth / randomized response under RATING. */
class CompletionBaselinesTest {

    static final CompletionFixtures.Split SMALL = CompletionFixtures.rankOne(4000, 40, 12, 4, 17);

    static SvdCompletionParameters svd(SvdCompletionParameters.LocalFit fit) {
        return new SvdCompletionParameters(SMALL.domain(), RatingsRelation.USER, 1, fit, 1e-3);
    }

    static AlsParameters als(int t) {
        return new AlsParameters(SMALL.domain(), RatingsRelation.USER, 1, t, 0.1, 1, 0.3, 0.1);
    }

    @Test
    void svdIsCalibratedReproducibleAndServesTheOwnersRows() {
        PrivateSvdMechanism m = PrivateSvdMechanism.forApproxDp(svd(SvdCompletionParameters.LocalFit.LEAST_SQUARES), 1,
                1e-6);
        double l2 = SMALL.domain().rowBound() * SMALL.domain().rowBound();
        double expected = Math.sqrt(2) * l2 * GaussianCalibration.analyticSigma(1, 1e-6, 1);
        assertThat(m.sigma()).isCloseTo(expected, within(2e-3 * expected));
        assertThat(m.privacyLoss().delta(1)).isLessThanOrEqualTo(1e-6).isGreaterThan(0.5e-6);
        List<double[]> rows = new ArrayList<>();
        SvdCompletionRelease a = m.release(SMALL.train(), TestNoiseSources.seeded(1), (u, row) -> rows.add(row));
        SvdCompletionRelease b = m.release(SMALL.train(), TestNoiseSources.seeded(1));
        assertArrayEquals(a.directions(), b.directions());
        RatingsMatrix data = RatingsMatrix.load(SMALL.train(), SMALL.domain());
        for (int u = 0; u < data.users(); u += 111) {
            UserRatings user = data.user(u);
            double[] r = user.centred().clone();
            for (int k = 0; k < r.length; k++) {
                r[k] += SMALL.domain().centre();
            }
            assertArrayEquals(rows.get(u), a.predict(user.items(), r));
        }
        // Orthonormal directions.
        assertThat(TopEigen.norm(a.directions())).isCloseTo(1, within(1e-9));
    }

    @Test
    void svdCompletesARankOneMatrixAtAModerateBudget() {
        double trivial = SMALL.trivialRmse();
        for (SvdCompletionParameters.LocalFit fit : SvdCompletionParameters.LocalFit.values()) {
            SvdCompletionRelease r = PrivateSvdMechanism.forRho(svd(fit), 5).release(SMALL.train(),
                    TestNoiseSources.seeded(2));
            assertThat(SMALL.rmse(r)).as(fit.name()).isLessThan(0.5 * trivial);
        }
    }

    @Test
    void alsIsCalibratedReproducibleAndServesTheOwnersRows() {
        AlsParameters p = als(3);
        DpAlsMechanism m = DpAlsMechanism.forApproxDp(p, 1, 1e-6);
        double unit = GaussianCalibration.analyticSigma(1, 1e-6, 1) * Math.sqrt(6);
        assertThat(m.gramSigma()).isCloseTo(DpAlsMechanism.gramSensitivity(p) * unit,
                within(2e-3 * DpAlsMechanism.gramSensitivity(p) * unit));
        assertThat(m.rhsSigma()).isCloseTo(DpAlsMechanism.rhsSensitivity(p) * unit,
                within(2e-3 * DpAlsMechanism.rhsSensitivity(p) * unit));
        assertThat(m.privacyLoss().delta(1)).isLessThanOrEqualTo(1e-6).isGreaterThan(0.5e-6);
        List<double[]> rows = new ArrayList<>();
        AlsRelease a = m.release(SMALL.train(), TestNoiseSources.seeded(3), (u, row) -> rows.add(row));
        AlsRelease b = m.release(SMALL.train(), TestNoiseSources.seeded(3));
        assertArrayEquals(a.itemFactors(), b.itemFactors());
        RatingsMatrix data = RatingsMatrix.load(SMALL.train(), SMALL.domain());
        for (int u = 0; u < data.users(); u += 111) {
            UserRatings user = data.user(u);
            double[] r = user.centred().clone();
            for (int k = 0; k < r.length; k++) {
                r[k] += SMALL.domain().centre();
            }
            assertArrayEquals(rows.get(u), a.predict(user.items(), r));
        }
        DpAlsMechanism z = DpAlsMechanism.forRho(p, 0.3);
        assertThat(z.privacyLoss().rho().doubleValue()).isLessThanOrEqualTo(0.3).isGreaterThan(0.299);
    }

    @Test
    void alsCompletesARankOneMatrixAtAModerateBudget() {
        double trivial = SMALL.trivialRmse();
        // From a random start ALS needs a few sweeps on this small matrix (40 items, 12 ratings per user).
        AlsRelease ref = References.als(SMALL.train(), new AlsParameters(SMALL.domain(), RatingsRelation.USER, 1, 10,
                0.01, 1, 1e6, 1), 1);
        assertThat(SMALL.rmse(ref)).isLessThan(0.05 * trivial);
        AlsRelease r = DpAlsMechanism.forRho(new AlsParameters(SMALL.domain(), RatingsRelation.USER, 1, 6, 0.1, 1, 0.3,
                1), 5).release(SMALL.train(), TestNoiseSources.seeded(4));
        assertThat(SMALL.rmse(r)).isLessThan(0.5 * trivial);
    }

    /** A tall, exactly rank-2, fully observed ratings matrix in [1, 5] (users × items). */
    static InMemoryRatings tall(int m, int n, long seed, double[] centredOut) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] a = new double[m][2];
        double[][] b = new double[n][2];
        for (int i = 0; i < m; i++) {
            a[i][0] = random.nextDouble() * 2 - 1;
            a[i][1] = random.nextDouble() * 2 - 1;
        }
        for (int j = 0; j < n; j++) {
            b[j][0] = random.nextDouble() * 2 - 1;
            b[j][1] = random.nextDouble() * 2 - 1;
        }
        int[] users = new int[m];
        int[] offsets = new int[m + 1];
        int[] items = new int[m * n];
        double[] ratings = new double[m * n];
        for (int i = 0; i < m; i++) {
            users[i] = i;
            offsets[i + 1] = (i + 1) * n;
            for (int j = 0; j < n; j++) {
                double c = a[i][0] * b[j][0] + a[i][1] * b[j][1];
                items[i * n + j] = j;
                ratings[i * n + j] = 3 + c;
                centredOut[i * n + j] = c;
            }
        }
        return new InMemoryRatings(n, users, offsets, items, ratings);
    }

    static double relativeError(EntryLevelLowRank.OrientedFactorization f, double[] centred, int m, int n) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double e = f.centredEntry(i, j) - centred[i * n + j];
                num += e * e;
                den += centred[i * n + j] * centred[i * n + j];
            }
        }
        return Math.sqrt(num / den);
    }

    @Test
    void hardtRothUnderRatingRunsOnTheShortSide() {
        assertThat(EntryLevelLowRank.shortSideRows(5000, 40)).isEqualTo(EntryLevelLowRank.Orientation.ITEMS_AS_ROWS);
        assertThat(EntryLevelLowRank.shortSideRows(40, 5000)).isEqualTo(EntryLevelLowRank.Orientation.USERS_AS_ROWS);
        int m = 5000;
        int n = 40;
        RatingsDomain domain = new RatingsDomain(n, 1, 5, n);
        double[] centred = new double[m * n];
        InMemoryRatings data = tall(m, n, 3, centred);
        EntryLevelLowRank hr = EntryLevelLowRank.hardtRoth(m, domain, 2, 3, 4, new BigDecimal("64"),
                new BigDecimal("1e-6"));
        assertThat(hr.orientation()).isEqualTo(EntryLevelLowRank.Orientation.ITEMS_AS_ROWS);
        EntryLevelLowRank.OrientedFactorization f = hr.release(data, TestNoiseSources.seeded(5));
        assertThat(f.orientation()).isEqualTo(EntryLevelLowRank.Orientation.ITEMS_AS_ROWS);
        assertThat(f.factors().u()).hasSize(n * 2);
        assertThat(f.factors().v()).hasSize(m * 2);
        double hrError = relativeError(f, centred, m, n);
        EntryLevelLowRank rr = EntryLevelLowRank.randomizedResponse(m, domain, 2, 64, 1e-6);
        double rrError = relativeError(rr.release(data, TestNoiseSources.seeded(5)), centred, m, n);
        // Both are useful at ε = 64 on this small matrix (below the zero answer's 1.0; entry noise for a range of 4).
        assertThat(hrError).isLessThan(1);
        assertThat(rrError).isLessThan(1);
        // The declared number of users must match (Ω is public under RATING).
        assertThatThrownBy(() -> EntryLevelLowRank.hardtRoth(m + 1, domain, 2, 3, 4, BigDecimal.ONE,
                new BigDecimal("1e-6")).release(data, TestNoiseSources.seeded(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
