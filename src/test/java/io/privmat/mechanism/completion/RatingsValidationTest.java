package io.privmat.mechanism.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.catalog.InvalidRatingsException;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.catalog.UserRatings;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RatingsValidationTest {

    static final RatingsDomain DOMAIN = new RatingsDomain(5, 1, 5, 3);

    /** A source of the given users (ids 0, 1, …) with the given (items, ratings). */
    static RatingsSource users(int[][] items, double[][] ratings) {
        return users(null, items, ratings);
    }

    static RatingsSource users(int[] ids, int[][] items, double[][] ratings) {
        return new RatingsSource() {
            @Override
            public int items() {
                return 5;
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                for (int u = 0; u < items.length; u++) {
                    visitor.visit(ids == null ? u : ids[u], items[u], ratings[u], items[u].length);
                }
            }
        };
    }

    static InvalidRatingsException.Reason loadReason(RatingsSource source) {
        try {
            RatingsMatrix.load(source, DOMAIN);
        } catch (InvalidRatingsException e) {
            assertThat(e.getMessage()).doesNotContain("7.5").doesNotContain("NaN").doesNotContain("0.5");
            return e.reason();
        }
        throw new AssertionError("expected an InvalidRatingsException");
    }

    @Test
    void eachBadInputIsATypedException() {
        assertThat(loadReason(users(new int[][] {{0, 2, 0}}, new double[][] {{1, 2, 3}})))
                .isEqualTo(InvalidRatingsException.Reason.DUPLICATE_ITEM);
        assertThat(loadReason(users(new int[][] {{5}}, new double[][] {{1}})))
                .isEqualTo(InvalidRatingsException.Reason.UNKNOWN_ITEM);
        assertThat(loadReason(users(new int[][] {{-1}}, new double[][] {{1}})))
                .isEqualTo(InvalidRatingsException.Reason.UNKNOWN_ITEM);
        assertThat(loadReason(users(new int[][] {{1}}, new double[][] {{7.5}})))
                .isEqualTo(InvalidRatingsException.Reason.RATING_OUT_OF_RANGE);
        assertThat(loadReason(users(new int[][] {{1}}, new double[][] {{0.5}})))
                .isEqualTo(InvalidRatingsException.Reason.RATING_OUT_OF_RANGE);
        assertThat(loadReason(users(new int[][] {{1}}, new double[][] {{Double.NaN}})))
                .isEqualTo(InvalidRatingsException.Reason.RATING_OUT_OF_RANGE);
        assertThat(loadReason(users(new int[][] {{0, 1, 2, 3}}, new double[][] {{1, 2, 3, 4}})))
                .isEqualTo(InvalidRatingsException.Reason.TOO_MANY_RATINGS);
        assertThat(loadReason(users(new int[] {3, 3}, new int[][] {{0}, {1}}, new double[][] {{1}, {2}})))
                .isEqualTo(InvalidRatingsException.Reason.USERS_NOT_INCREASING);
        assertThat(loadReason(users(new int[] {3, 2}, new int[][] {{0}, {1}}, new double[][] {{1}, {2}})))
                .isEqualTo(InvalidRatingsException.Reason.USERS_NOT_INCREASING);
        RatingsSource malformed = new RatingsSource() {
            @Override
            public int items() {
                return 5;
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                visitor.visit(0, new int[] {1}, new double[] {1}, 2);
            }
        };
        assertThat(loadReason(malformed)).isEqualTo(InvalidRatingsException.Reason.MALFORMED_VISIT);
    }

    @Test
    void theExceptionNamesPositionUserAndItem() {
        InvalidRatingsException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidRatingsException.class,
                () -> RatingsMatrix.load(users(new int[] {10, 20}, new int[][] {{0}, {4, 4}},
                        new double[][] {{1}, {2, 3}}), DOMAIN));
        assertThat(e.position()).isEqualTo(1);
        assertThat(e.user()).isEqualTo(20);
        assertThat(e.item()).isEqualTo(4);
        assertThat(e.getMessage()).contains("#1").contains("id 20").contains("item 4");
    }

    @Test
    void canonicalFormSortsCentresAndKeepsEmptyUsers() {
        RatingsMatrix data = RatingsMatrix.load(users(new int[][] {{3, 0, 2}, {}, {4}},
                new double[][] {{5, 1, 4}, {}, {3}}), DOMAIN);
        assertThat(data.users()).isEqualTo(3);
        assertThat(data.ratings()).isEqualTo(4);
        UserRatings first = data.user(0);
        assertThat(first.items()).containsExactly(0, 2, 3);
        assertThat(first.centred()).containsExactly(-2, 1, 2);
        assertThat(data.user(1).count()).isZero();
        assertThat(DOMAIN.rowBound()).isEqualTo(Math.nextUp(2 * Math.sqrt(3)));
        assertThat(DOMAIN.entryChange()).isGreaterThanOrEqualTo(4).isLessThan(4 * (1 + 1e-9));
    }

    @Test
    void domainRejectsBadParameters() {
        assertThatThrownBy(() -> new RatingsDomain(0, 1, 5, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RatingsDomain(5, 5, 5, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RatingsDomain(5, 1, Double.POSITIVE_INFINITY, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RatingsDomain(5, 1, 5, 6)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A source that counts every random draw. */
    static final class Counting implements NoiseSource {
        final NoiseSource inner = TestNoiseSources.seeded(1);
        final AtomicLong draws = new AtomicLong();

        @Override
        public long nextLong() {
            draws.incrementAndGet();
            return inner.nextLong();
        }

        @Override
        public NoiseSource split() {
            draws.incrementAndGet();
            return inner.split();
        }

        @Override
        public Replayable replayable() {
            draws.incrementAndGet();
            return inner.replayable();
        }
    }

    @Test
    void mechanismsRejectBadDataBeforeDrawingNoise() {
        RatingsSource bad = users(new int[][] {{0, 1}, {2, 2}}, new double[][] {{1, 2}, {3, 4}});
        Counting noise = new Counting();
        List<Runnable> runs = List.of(
                () -> PrivateFrankWolfeMechanism.forRho(FrankWolfeParameters.of(DOMAIN, RatingsRelation.USER, 10, 3), 1)
                        .release(bad, noise),
                () -> PrivateSvdMechanism.forRho(new SvdCompletionParameters(DOMAIN, RatingsRelation.USER, 1,
                        SvdCompletionParameters.LocalFit.LEAST_SQUARES, 0.1), 1).release(bad, noise),
                () -> DpAlsMechanism.forRho(new AlsParameters(DOMAIN, RatingsRelation.USER, 1, 2, 0.1, 1, 1, 0.1), 1)
                        .release(bad, noise),
                () -> EntryLevelLowRank.randomizedResponse(2, DOMAIN, 1, 1, 1e-6).release(bad, noise));
        for (Runnable run : runs) {
            assertThatThrownBy(run::run).isInstanceOf(InvalidRatingsException.class);
        }
        assertThat(noise.draws.get()).isZero();
    }

    @Test
    void predictionsValidateTheUsersRatingsToo() {
        FrankWolfeRelease release = PrivateFrankWolfeMechanism.forRho(
                FrankWolfeParameters.of(DOMAIN, RatingsRelation.USER, 10, 2), 1)
                .release(users(new int[][] {{0, 1}, {2}}, new double[][] {{1, 2}, {3}}), TestNoiseSources.seeded(3));
        assertThatThrownBy(() -> release.predict(new int[] {1, 1}, new double[] {2, 3}))
                .isInstanceOfSatisfying(InvalidRatingsException.class,
                        e -> assertThat(e.reason()).isEqualTo(InvalidRatingsException.Reason.DUPLICATE_ITEM));
        assertThatThrownBy(() -> release.predict(new int[] {9}, new double[] {2}))
                .isInstanceOf(InvalidRatingsException.class);
        // A user without ratings gets the midpoint everywhere.
        assertThat(release.predict(new int[0], new double[0])).containsOnly(3.0);
        double[] row = release.predict(new int[] {0, 4}, new double[] {5, 1});
        assertThat(row).hasSize(5);
        for (double x : row) {
            assertThat(x).isBetween(1.0, 5.0);
        }
    }
}
