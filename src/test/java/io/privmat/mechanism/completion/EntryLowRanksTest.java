package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RequestParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.RatingsData;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsFacts;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * HARDT_ROTH_RATING and RANDOMIZED_RESPONSE_RATING release exactly what {@link EntryLevelLowRank}
 * releases (the configuration measured in docs/accuracy/completion.md §(c)), re-oriented users ×
 * items without changing the approximation; the relation and size checks come before any data.
 */
class EntryLowRanksTest {

    static final QueryBudget HR_BUDGET = new QueryBudget(new BigDecimal("2"), new BigDecimal("1e-6"), null);

    static Plan plan(String mechanism, QueryBudget budget, Map<String, Object> params, int users) {
        return MechanismCatalog.standard().plan("LOW_RANK", mechanism, budget, RequestParams.of(params),
                RatingsData.ratingFacts(AccountingMode.ZCDP, users));
    }

    /** m = 8 users > n = 6 items (ITEMS_AS_ROWS) and m = 4 < 6 (USERS_AS_ROWS). */
    @Test
    void hardtRothReleasesTheCoresFactorsUsersByItems() {
        for (int users : new int[] {8, 4}) {
            RatingsData data = RatingsData.random(new SplittableRandom(users), users);
            Plan plan = plan("HARDT_ROTH_RATING", HR_BUDGET, Map.of("k", 2, "oversampling", 2), users);
            EntryLevelLowRank core = EntryLevelLowRank.hardtRoth(users, RatingsData.DOMAIN, 2, 2, 1.0,
                    HR_BUDGET.epsilon(), HR_BUDGET.delta());
            String expected = users > 6 ? "ITEMS_AS_ROWS" : "USERS_AS_ROWS";
            assertThat(core.orientation().name()).isEqualTo(expected);
            assertThat(plan.noise().get(NoiseFacts.ORIENTATION)).isEqualTo(expected);
            EntryLevelLowRank.OrientedFactorization oriented = core.release(data.ratings(), TestNoiseSources.seeded(3));
            Factorization served = ((Release.Factors) plan.release(data, TestNoiseSources.seeded(3))).factorization();
            assertThat(served.facts().get(FactorizationFacts.ORIENTATION)).isEqualTo(expected);
            assertServedEqualsCore(served, oriented, users);
        }
    }

    @Test
    void randomizedResponseReleasesTheCoresFactors() {
        RatingsData data = RatingsData.random(new SplittableRandom(5), 8);
        Plan plan = plan("RANDOMIZED_RESPONSE_RATING", new QueryBudget(null, null, new BigDecimal("0.5")), Map.of("k", 2), 8);
        EntryLevelLowRank core = EntryLevelLowRank.randomizedResponseForRho(8, RatingsData.DOMAIN, 2, 0.5);
        assertThat(plan.noise().get(NoiseFacts.ORIENTATION)).isEqualTo("USERS_AS_ROWS");
        assertThat(plan.noise().get(NoiseFacts.SIGMA))
                .isEqualTo(core.randomizedResponseMechanism().sigma());
        assertServedEqualsCore(((Release.Factors) plan.release(data, TestNoiseSources.seeded(4))).factorization(),
                core.release(data.ratings(), TestNoiseSources.seeded(4)), 8);
    }

    /** Same singular values, the same rank-k approximation of every entry; u per user, v per item. */
    static void assertServedEqualsCore(Factorization served, EntryLevelLowRank.OrientedFactorization core, int users) {
        int n = RatingsData.DOMAIN.items();
        int k = served.k();
        assertThat(served.m()).isEqualTo(users);
        assertThat(served.d()).isEqualTo(n);
        assertThat(served.u()).hasSize(users * k);
        assertThat(served.v()).hasSize(n * k);
        assertArrayEquals(core.factors().s(), served.s(), 0.0);
        for (int i = 0; i < users; i++) {
            for (int j = 0; j < n; j++) {
                double entry = 0;
                for (int t = 0; t < k; t++) {
                    entry += served.u()[i * k + t] * served.s()[t] * served.v()[j * k + t];
                }
                // The same products, multiplied in the other order when the sides swapped.
                assertThat(entry).as("entry (%d, %d)", i, j).isCloseTo(core.centredEntry(i, j),
                        org.assertj.core.data.Offset.offset(1e-12 * (1 + Math.abs(entry))));
            }
        }
    }

    @Test
    void userRelationAndOversizedMatricesAreRefusedFromPublicFacts() {
        PublicFacts user = PublicFacts.ratings(new RatingsFacts(RatingsData.DOMAIN, RatingsRelation.USER), null,
                AccountingMode.ZCDP);
        assertThatThrownBy(() -> MechanismCatalog.standard().plan("LOW_RANK", "HARDT_ROTH_RATING", HR_BUDGET,
                RequestParams.of("k", 1), user)).isInstanceOfSatisfying(PlanningException.class, e -> {
                    assertThat(e.reason()).isEqualTo(PlanningException.Reason.WRONG_DATASET_KIND);
                    assertThat(e.getMessage()).contains("relation RATING", "m is not public");
                });
        PublicFacts large = PublicFacts.ratings(new RatingsFacts(new RatingsDomain(
                1000, 1, 5, 10), RatingsRelation.RATING), 25_001L, AccountingMode.ZCDP);
        assertThatThrownBy(() -> MechanismCatalog.standard().plan("LOW_RANK", "HARDT_ROTH_RATING", HR_BUDGET,
                RequestParams.of("k", 1), large)).isInstanceOfSatisfying(PlanningException.class,
                e -> assertThat(e.reason()).isEqualTo(PlanningException.Reason.DATASET_TOO_LARGE));
        // At the limit (25 000 × 1 000, a shape of §(c)) it plans.
        PublicFacts atLimit = PublicFacts.ratings(new RatingsFacts(new RatingsDomain(
                1000, 1, 5, 10), RatingsRelation.RATING), 25_000L, AccountingMode.ZCDP);
        assertThat(MechanismCatalog.standard().plan("LOW_RANK", "HARDT_ROTH_RATING", HR_BUDGET, RequestParams.of("k", 3,
                "oversampling", 2), atLimit).noise().get(NoiseFacts.ORIENTATION)).isEqualTo("ITEMS_AS_ROWS");
    }
}
