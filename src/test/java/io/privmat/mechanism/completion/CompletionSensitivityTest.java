package io.privmat.mechanism.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Neighbouring pairs: each released statistic moves by at most the sensitivity it is calibrated
 * with, including adversarial users (extreme ratings, disjoint items) and, for Frank–Wolfe and ALS,
 * at every iteration given the same broadcasts.
 */
class CompletionSensitivityTest {

    static final int N = 30;
    static final int S = 8;
    static final RatingsDomain DOMAIN = new RatingsDomain(N, 1, 5, S);

    /** m random users; user 0 rates items 0..S−1 with the top rating. */
    static int[][] items = new int[0][];
    static double[][] ratings = new double[0][];

    static RatingsSource source(int[][] it, double[][] r) {
        return new RatingsSource() {
            @Override
            public int items() {
                return N;
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                for (int u = 0; u < it.length; u++) {
                    visitor.visit(u, it[u], r[u], it[u].length);
                }
            }
        };
    }

    /**
     * Base data (user 0 rates items 0..S−1 at the top), the same with user 0 replaced (either the top
     * rating on items S..2S−1, or the same items with the first half at the bottom), and with user 0
     * removed.
     */
    record Pair(RatingsMatrix base, RatingsMatrix replaced, RatingsMatrix removed) {}

    static Pair pair(int m, long seed, boolean oppositeOnSameItems) {
        SplittableRandom random = new SplittableRandom(seed);
        int[][] it = new int[m][];
        double[][] r = new double[m][];
        for (int u = 0; u < m; u++) {
            int c = 1 + random.nextInt(S);
            int[] perm = random.ints(0, N).distinct().limit(c).toArray();
            it[u] = perm;
            r[u] = new double[c];
            for (int k = 0; k < c; k++) {
                r[u][k] = 1 + 4 * random.nextDouble();
            }
        }
        it[0] = new int[S];
        r[0] = new double[S];
        for (int k = 0; k < S; k++) {
            it[0][k] = k;
            r[0][k] = 5;
        }
        int[][] it2 = it.clone();
        double[][] r2 = r.clone();
        it2[0] = new int[S];
        r2[0] = new double[S];
        for (int k = 0; k < S; k++) {
            it2[0][k] = oppositeOnSameItems ? k : S + k;
            r2[0][k] = oppositeOnSameItems && k < S / 2 ? 1 : 5;
        }
        int[][] it3 = Arrays.copyOfRange(it, 1, m);
        double[][] r3 = Arrays.copyOfRange(r, 1, m);
        RatingsSource removed = new RatingsSource() {
            @Override
            public int items() {
                return N;
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                for (int u = 0; u < it3.length; u++) {
                    visitor.visit(u + 1, it3[u], r3[u], it3[u].length);
                }
            }
        };
        return new Pair(RatingsMatrix.load(source(it, r), DOMAIN), RatingsMatrix.load(source(it2, r2), DOMAIN),
                RatingsMatrix.load(removed, DOMAIN));
    }

    static double frobeniusDiff(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    /** The upper-triangle Gram as a full symmetric matrix (the Frobenius norm of the released W). */
    static double[] full(double[] upper, int n) {
        double[] w = upper.clone();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                w[i * n + j] = w[j * n + i];
            }
        }
        return w;
    }

    @Test
    void frankWolfeGradientGramsMoveByAtMostTheirSensitivityAtEveryIteration() {
        double l = DOMAIN.rowBound();
        for (boolean opposite : new boolean[] {false, true}) {
            Pair pair = pair(400, opposite ? 2 : 1, opposite);
            FrankWolfeParameters p = FrankWolfeParameters.of(DOMAIN, RatingsRelation.USER, 200, 6)
                    .withSchedule(FrankWolfeParameters.StepSchedule.STANDARD);
            double replace = PrivateFrankWolfeMechanism.sensitivity(p);
            FrankWolfeParameters pAr = new FrankWolfeParameters(DOMAIN, RatingsRelation.USER_ADD_REMOVE, 200, 6,
                    p.schedule(), p.beta(), p.lanczosSteps(), p.gradientClip(), p.ridge());
            double addRemove = PrivateFrankWolfeMechanism.sensitivity(pAr);
            double replaceFirst = PrivateFrankWolfeMechanism.firstSensitivity(p);
            double addRemoveFirst = PrivateFrankWolfeMechanism.firstSensitivity(pAr);
            // Broadcasts from a real run on the base data (large budget: they follow the data).
            FrankWolfeRelease release = PrivateFrankWolfeMechanism.forRho(p, 1e3).run(pair.base(),
                    TestNoiseSources.seeded(3)).release();
            double[] y1 = new double[pair.base().ratings()];
            double[] y2 = new double[pair.replaced().ratings()];
            double[] y3 = new double[pair.removed().ratings()];
            double largest = 0;
            for (int t = 0; t < 6; t++) {
                double[] w1 = full(Grams.gradientGram(pair.base(), y1), N);
                double[] w2 = full(Grams.gradientGram(pair.replaced(), y2), N);
                double[] w3 = full(Grams.gradientGram(pair.removed(), y3), N);
                double dReplace = frobeniusDiff(w1, w2);
                double dRemove = frobeniusDiff(w1, w3);
                assertThat(dReplace).isLessThanOrEqualTo(t == 0 ? replaceFirst : replace);
                assertThat(dRemove).isLessThanOrEqualTo(t == 0 ? addRemoveFirst : addRemove);
                largest = Math.max(largest, dReplace);
                if (t == 0 && !opposite) {
                    // At t = 0, Aᵢ = −yᵢ: two orthogonal extreme rows attain the first release's bound √2·L².
                    assertThat(dReplace).isCloseTo(Math.sqrt(2) * 8 * 4, within(1e-9));
                }
                double[] v = release.direction(t + 1);
                double lp = release.lambdaPrime()[t];
                stepAll(pair.base(), y1, v, lp, p, t + 1);
                stepAll(pair.replaced(), y2, v, lp, p, t + 1);
                stepAll(pair.removed(), y3, v, lp, p, t + 1);
            }
            assertThat(largest).isGreaterThan(0.2 * replace);
            assertThat(l).isEqualTo(DOMAIN.rowBound());
        }
    }

    /**
     * With a clip C below L, every release — the paper's steps and the fully corrective refits alike —
     * moves by at most √2·C² (replace) or C² (remove) at every iteration given the same broadcasts, and
     * the extreme user (norm L at t = 0, clipped to C) attains the bound.
     */
    @Test
    void clippedGradientGramsMoveByAtMostTheClipsSensitivityAtEveryIteration() {
        double c = DOMAIN.rowBound() / 4;
        for (FrankWolfeParameters.StepSchedule schedule : FrankWolfeParameters.StepSchedule.values()) {
            Pair pair = pair(400, 7, false);
            FrankWolfeParameters p = FrankWolfeParameters.of(DOMAIN, RatingsRelation.USER, 200, 4).withSchedule(schedule)
                    .withGradientClip(c);
            FrankWolfeParameters ar = new FrankWolfeParameters(DOMAIN, RatingsRelation.USER_ADD_REMOVE, 200, 4, schedule,
                    p.beta(), p.lanczosSteps(), c, p.ridge());
            assertThat(PrivateFrankWolfeMechanism.sensitivity(p)).isEqualTo(PrivateFrankWolfeMechanism.firstSensitivity(p))
                    .isCloseTo(Math.sqrt(2) * c * c, within(1e-9));
            assertThat(PrivateFrankWolfeMechanism.sensitivity(ar)).isCloseTo(c * c, within(1e-9));
            FrankWolfeRelease release = PrivateFrankWolfeMechanism.forRho(p, 1e3).run(pair.base(),
                    TestNoiseSources.seeded(3)).release();
            RatingsMatrix[] data = {pair.base(), pair.replaced(), pair.removed()};
            double[][] y = new double[3][];
            for (int k = 0; k < 3; k++) {
                y[k] = new double[data[k].ratings()];
            }
            double[] basis = new double[0];
            int r = 0;
            for (int t = 0; t < 4; t++) {
                double[][] w = new double[3][];
                for (int k = 0; k < 3; k++) {
                    w[k] = full(Grams.gram(data[k], Grams.clippedGradient(data[k], y[k], p.clip(t))), N);
                }
                double dReplace = frobeniusDiff(w[0], w[1]);
                assertThat(dReplace).as("%s, t = %d", schedule, t)
                        .isLessThanOrEqualTo(PrivateFrankWolfeMechanism.sensitivity(p));
                assertThat(frobeniusDiff(w[0], w[2])).isLessThanOrEqualTo(PrivateFrankWolfeMechanism.sensitivity(ar));
                if (t == 0) {
                    assertThat(dReplace).isCloseTo(Math.sqrt(2) * c * c, within(1e-9));
                }
                double[] v = release.direction(t + 1);
                if (schedule.usesRadius()) {
                    for (int k = 0; k < 3; k++) {
                        stepAll(data[k], y[k], v, release.lambdaPrime()[t], p, t + 1);
                    }
                } else if (TopEigen.norm(v) > 0) {
                    basis = Directions.append(basis, r++, v, N);
                    for (int k = 0; k < 3; k++) {
                        for (int u = 0; u < data[k].users(); u++) {
                            FrankWolfeLocal.refit(y[k], null, data[k].items(), data[k].values(), data[k].start(u),
                                    data[k].end(u), basis, r, p.ridge());
                        }
                    }
                }
            }
        }
    }

    static void stepAll(RatingsMatrix data, double[] y, double[] v, double lp, FrankWolfeParameters p, int t) {
        for (int u = 0; u < data.users(); u++) {
            FrankWolfeLocal.step(y, null, data.items(), data.values(), data.start(u), data.end(u), v, lp, p.stepSize(t),
                    p.nuclearRadius(), p.domain().rowBound());
        }
    }

    @Test
    void aRowThatIsNotFiniteIsClippedToZeroAndATinyPivotFitsNothing() {
        // A NaN norm compares false with the clip, so such a row used to pass unclipped (and an infinite
        // entry became NaN): its Gram entries then wiped every other user's sum at its items.
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            double[] a = {7, bad, 1, 2, 9};
            Grams.clipRow(a, 1, 4, 0.5);
            assertThat(a).containsExactly(7, 0, 0, 0, 9);
        }
        double[] huge = {1e200, 1e200};
        Grams.clipRow(huge, 0, 2, 0.5); // squares overflow: zero is within the clip as well
        assertThat(huge).containsExactly(0, 0);
        double[] fine = {3, 4};
        Grams.clipRow(fine, 0, 2, 0.5);
        assertThat(fine[0]).isCloseTo(0.3, within(1e-15));
        assertThat(fine[1]).isCloseTo(0.4, within(1e-15));
        assertThat(SmallSolve.spd(new double[] {1e-320}, new double[] {1}, 1)).containsExactly(0);
    }

    @Test
    void svdGramMovesByAtMostItsSensitivity() {
        Pair pair = pair(300, 4, false);
        SvdCompletionParameters p = new SvdCompletionParameters(DOMAIN, RatingsRelation.USER, 2,
                SvdCompletionParameters.LocalFit.LEAST_SQUARES, 0.1);
        SvdCompletionParameters ar = new SvdCompletionParameters(DOMAIN, RatingsRelation.USER_ADD_REMOVE, 2, p.fit(), 0.1);
        double[] w1 = full(Grams.gram(pair.base(), pair.base().values()), N);
        double[] w2 = full(Grams.gram(pair.replaced(), pair.replaced().values()), N);
        double[] w3 = full(Grams.gram(pair.removed(), pair.removed().values()), N);
        double l2 = DOMAIN.rowBound() * DOMAIN.rowBound();
        assertThat(PrivateSvdMechanism.sensitivity(p)).isCloseTo(Math.sqrt(2) * l2, within(1e-9));
        assertThat(PrivateSvdMechanism.sensitivity(ar)).isCloseTo(l2, within(1e-9));
        // Extreme orthogonal rows attain the bounds (up to the 2⁻⁴⁰ widening).
        assertThat(frobeniusDiff(w1, w2)).isLessThanOrEqualTo(PrivateSvdMechanism.sensitivity(p))
                .isCloseTo(Math.sqrt(2) * l2, within(1e-9));
        assertThat(frobeniusDiff(w1, w3)).isLessThanOrEqualTo(PrivateSvdMechanism.sensitivity(ar))
                .isCloseTo(l2, within(1e-9));
    }

    @Test
    void alsItemStatisticsMoveByAtMostTheirSensitivity() {
        Pair pair = pair(300, 5, false);
        // A small clip so that every user factor is clipped: the replaced pair is then tight.
        AlsParameters p = new AlsParameters(DOMAIN, RatingsRelation.USER, 3, 2, 0.1, 1, 0.05, 0.3);
        AlsParameters ar = new AlsParameters(DOMAIN, RatingsRelation.USER_ADD_REMOVE, 3, 2, 0.1, 1, 0.05, 0.3);
        SplittableRandom random = new SplittableRandom(8);
        for (int trial = 0; trial < 5; trial++) {
            double[] v = new double[N * 3];
            for (int i = 0; i < v.length; i++) {
                v[i] = random.nextGaussian();
            }
            DpAlsMechanism.Statistics s1 = DpAlsMechanism.statistics(pair.base(), v, p);
            DpAlsMechanism.Statistics s2 = DpAlsMechanism.statistics(pair.replaced(), v, p);
            DpAlsMechanism.Statistics s3 = DpAlsMechanism.statistics(pair.removed(), v, p);
            double dg = frobeniusDiff(s1.grams(), s2.grams());
            assertThat(dg).isLessThanOrEqualTo(DpAlsMechanism.gramSensitivity(p));
            // Disjoint items, both factors at the clip: √(2s)·C², less the quantisation of the factors
            // towards zero on the grid C·2⁻²² (relative < 2⁻¹⁸ here).
            assertThat(dg).isCloseTo(Math.sqrt(2 * S) * 0.05 * 0.05, within(1e-8));
            assertThat(frobeniusDiff(s1.rhs(), s2.rhs())).isLessThanOrEqualTo(DpAlsMechanism.rhsSensitivity(p));
            assertThat(frobeniusDiff(s1.grams(), s3.grams())).isLessThanOrEqualTo(DpAlsMechanism.gramSensitivity(ar));
            assertThat(frobeniusDiff(s1.rhs(), s3.rhs())).isLessThanOrEqualTo(DpAlsMechanism.rhsSensitivity(ar))
                    .isCloseTo(DOMAIN.rowBound() * 0.05, within(1e-6));
        }
    }

    /**
     * A public V with infinite, huge or NaN entries (a near-singular solve at a tiny itemRidge) must
     * not let one user's NaN fit reach other users' sums (the grid rounding would zero the whole
     * entry: a distinguishing event found by the attack review of docs/adr/0011). The statistics stay
     * finite, and neighbours still move them by at most the declared sensitivities.
     */
    @Test
    void alsStatisticsStayFiniteAndWithinTheSensitivityForAnyPublicV() {
        Pair pair = pair(300, 6, false);
        AlsParameters p = new AlsParameters(DOMAIN, RatingsRelation.USER, 3, 2, 0.1, 1, 0.05, 0.3);
        AlsParameters ar = new AlsParameters(DOMAIN, RatingsRelation.USER_ADD_REMOVE, 3, 2, 0.1, 1, 0.05, 0.3);
        double[][] bad = {{Double.POSITIVE_INFINITY}, {Double.NEGATIVE_INFINITY}, {Double.NaN}, {1e308}, {-1e300}};
        SplittableRandom random = new SplittableRandom(9);
        for (double[] value : bad) {
            double[] v = new double[N * 3];
            for (int i = 0; i < v.length; i++) {
                v[i] = random.nextGaussian();
            }
            v[random.nextInt(v.length)] = value[0];
            DpAlsMechanism.Statistics s1 = DpAlsMechanism.statistics(pair.base(), v, p);
            DpAlsMechanism.Statistics s2 = DpAlsMechanism.statistics(pair.replaced(), v, p);
            DpAlsMechanism.Statistics s3 = DpAlsMechanism.statistics(pair.removed(), v, p);
            for (DpAlsMechanism.Statistics st : new DpAlsMechanism.Statistics[] {s1, s2, s3}) {
                assertThat(Arrays.stream(st.grams()).allMatch(Double::isFinite)).as("V with %s", value[0])
                        .isTrue();
                assertThat(Arrays.stream(st.rhs()).allMatch(Double::isFinite)).isTrue();
            }
            assertThat(frobeniusDiff(s1.grams(), s2.grams())).isLessThanOrEqualTo(DpAlsMechanism.gramSensitivity(p));
            assertThat(frobeniusDiff(s1.rhs(), s2.rhs())).isLessThanOrEqualTo(DpAlsMechanism.rhsSensitivity(p));
            assertThat(frobeniusDiff(s1.grams(), s3.grams())).isLessThanOrEqualTo(DpAlsMechanism.gramSensitivity(ar));
            assertThat(frobeniusDiff(s1.rhs(), s3.rhs())).isLessThanOrEqualTo(DpAlsMechanism.rhsSensitivity(ar));
        }
        double[] out = new double[3];
        DpAlsMechanism.clipFit(new double[] {1e200, -1e200, 0}, 0.05, out, 0);
        assertThat(Math.hypot(out[0], out[1])).isCloseTo(0.05, within(1e-12));
        DpAlsMechanism.clipFit(new double[] {Double.NaN, 1, 1}, 0.05, out, 0);
        assertThat(out).containsExactly(0, 0, 0);
    }

    @Test
    void oneRatingChangeIsARowChangeOfNormAtMostTheRange() {
        // Under RATING the dense centred matrix moves by one entry of at most hi − lo = 2B.
        assertThat(EntryLevelLowRank.rowBoundFor(DOMAIN)).isCloseTo(2, within(1e-9));
        EntryLevelLowRank rr = EntryLevelLowRank.randomizedResponse(100, DOMAIN, 2, 1, 1e-6);
        assertThat(rr.randomizedResponseMechanism().privacyLoss().l2Sensitivity()).isBetween(4.0, 4 * (1 + 1e-3));
        Pair pair = pair(50, 6, true);
        // User 0 rated items 0..S−1 at 5, in the replaced data at 1: changing one of them is one entry of size 4.
        double[] a = pair.base().values();
        double[] b = pair.replaced().values();
        assertThat(Math.abs(a[0] - b[0])).isEqualTo(4.0);
    }
}
