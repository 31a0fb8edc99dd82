package io.privmat.mechanism.catalog;

import static io.privmat.mechanism.catalog.NoiseWarningsTest.CATALOG;
import static io.privmat.mechanism.catalog.NoiseWarningsTest.epsilon;
import static io.privmat.mechanism.catalog.NoiseWarningsTest.matrix;
import static io.privmat.mechanism.catalog.NoiseWarningsTest.plan;
import static io.privmat.mechanism.catalog.NoiseWarningsTest.rankOne;
import static io.privmat.mechanism.catalog.NoiseWarningsTest.result;
import static io.privmat.mechanism.catalog.NoiseWarningsTest.rho;
import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.noise.TestNoiseSources;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Ranks that need no guess (docs/mechanisms/catalogue.md, "Defaults"): where the rank is
 * post-processing (ANALYZE_GAUSS and WISHART PCA, RANDOMIZED_RESPONSE), an absent k keeps every
 * component above the noise's bound, so a rank-one matrix gets one component and a rank-two matrix
 * two, with no COMPONENTS_IN_NOISE warning; where the noise grows with k, k defaults to 1.
 */
class DefaultsTest {

    /** 2000 rows along two orthogonal directions with weights 0.8 and 0.5: λ₁ ≈ 1280, λ₂ ≈ 500. */
    static double[][] rankTwo(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (double[] row : rows) {
            double a = 0.8 * (r.nextBoolean() ? 1 : -1);
            double b = 0.5 * (r.nextBoolean() ? 1 : -1);
            row[0] = a;
            row[1] = b;
        }
        return rows;
    }

    static int releasedRank(Plan plan, DataAccess data, long seed) {
        Release release = plan.release(data, TestNoiseSources.seeded(seed));
        if (release instanceof Release.Covariance c) {
            assertThat(c.result().eigenvalues()).hasSize(c.result().k());
            assertThat(c.result().components()).hasSize(c.result().d() * c.result().k());
            return c.result().k();
        }
        var f = ((Release.Factors) release).factorization();
        assertThat(f.s()).hasSize(f.k());
        assertThat(f.v()).hasSize(f.d() * f.k());
        if (f.u() != null) {
            assertThat(f.u()).hasSize(f.m() * f.k());
        }
        return f.k();
    }

    @Test
    void postProcessingRanksKeepTheComponentsAboveTheNoise() {
        DataAccess one = InMemoryData.matrix(rankOne(2000, 5, 1));
        DataAccess two = InMemoryData.matrix(rankTwo(2000, 5, 2));
        record Case(String mechanism, String kind, QueryBudget budget) {}
        for (Case c : List.of(new Case("ANALYZE_GAUSS", "PCA", rho(new BigDecimal("0.5"))),
                new Case("WISHART", "PCA", epsilon("1", "1e-6")),
                new Case("RANDOMIZED_RESPONSE", "LOW_RANK", rho(BigDecimal.TEN)),
                new Case("RANDOMIZED_RESPONSE", "TOP_SINGULAR_VECTORS", rho(BigDecimal.TEN)))) {
            Plan auto = plan(c.mechanism(), c.kind(), c.budget(), Map.of(), matrix(5, 2000));
            assertThat(auto.spec().params().has("k")).as("absent k stays absent in the spec").isFalse();
            assertThat(CATALOG.expectedError(auto)).isNotEmpty();
            assertThat(releasedRank(auto, one, 3)).as(c + " on a rank-one matrix").isEqualTo(1);
            assertThat(releasedRank(auto, two, 4)).as(c + " on a rank-two matrix").isEqualTo(2);
            assertThat(result(auto, two, 5)).as(c + " warns nothing").isEmpty();
            Plan asked = plan(c.mechanism(), c.kind(), c.budget(), Map.of("k", 4), matrix(5, 2000));
            assertThat(releasedRank(asked, two, 6)).as("an explicit k is kept").isEqualTo(4);
        }
        // Shrunk singular values: the components shrinkage did not zero.
        Plan shrunk = plan("RANDOMIZED_RESPONSE", "LOW_RANK", rho(BigDecimal.TEN), Map.of("shrink", true),
                matrix(5, 2000));
        assertThat(releasedRank(shrunk, two, 7)).isEqualTo(2);
        // Pure noise keeps the top component only (and says so).
        Plan weak = plan("ANALYZE_GAUSS", "PCA", rho(new BigDecimal("0.0001")), Map.of(), matrix(5, 20));
        DataAccess noise = InMemoryData.matrix(NoiseWarningsTest.centredNoise(20, 5, 8));
        assertThat(releasedRank(weak, noise, 9)).isEqualTo(1);
        assertThat(result(weak, noise, 9)).singleElement().satisfies(w ->
                assertThat(w.code()).isEqualTo(NoiseWarning.Code.NOISE_DOMINATED));
    }

    @Test
    void ranksThatCostNoiseDefaultToOne() {
        DataAccess two = InMemoryData.matrix(rankTwo(2000, 5, 2));
        record Case(String mechanism, String kind, QueryBudget budget) {}
        for (Case c : List.of(new Case("NOISY_POWER", "TOP_SINGULAR_VECTORS", rho(new BigDecimal("0.5"))),
                new Case("PRIVATE_OJA", "TOP_SINGULAR_VECTORS", rho(new BigDecimal("0.5"))),
                new Case("HARDT_ROTH", "LOW_RANK", epsilon("1", "1e-6")),
                new Case("ORBIT_SAMPLING", "TOP_SINGULAR_VECTORS", epsilon("1", null)),
                new Case("EIGEN_SAMPLING", "PCA", epsilon("1", null)))) {
            Plan p = plan(c.mechanism(), c.kind(), c.budget(), Map.of(), matrix(5, 2000));
            assertThat(releasedRank(p, two, 10)).as(c.mechanism()).isEqualTo(1);
        }
    }
}
