package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.RequestParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.PrivacyArgumentException;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exact samplers' policy reaches the contract: the plan's noise facts carry the data-independent
 * failure bound and the policy in words, and the column limit (the Gram limit, 5000; the sampler's own
 * proven bound reaches 16384) is stated in the summary and the range of k before anyone tries, and
 * enforced at planning, before any charge. Fashion-MNIST's d = 784 is admitted again.
 */
class SamplerPolicyTest {

    private static final MechanismCatalog CATALOG = MechanismCatalog.standard();
    private static final QueryBudget EPSILON = new QueryBudget(BigDecimal.ONE, null, null);

    static PublicFacts facts(int d) {
        return new PublicFacts(DataShape.MATRIX, d, 100L, 1.0, NeighbouringRelation.REPLACE_ONE, AccountingMode.PURE);
    }

    @Test
    void theLimitIsTheGramLimitAndTheContractSaysSo() {
        assertThat(BinghamAcceptance.maxDimension()).isEqualTo(16384);
        assertThat(Samplers.MAX_COLUMNS).isEqualTo(Limits.MAX_GRAM_DIMENSION);
        for (String name : new String[] {"EIGEN_SAMPLING", "ORBIT_SAMPLING"}) {
            MechanismDefinition m = CATALOG.find(name).orElseThrow();
            assertThat(m.summary()).contains("more than 5000 columns are refused at planning", "up to 16384");
            assertThat(m.params().stream().filter(p -> p.name().equals("k")).findFirst().orElseThrow().max())
                    .isEqualTo((double) Limits.MAX_K);
        }
        // d = 784 (Fashion-MNIST) plans; d = 5001 is refused by the Gram limit, before any charge.
        assertThat(CATALOG.plan("PCA", "EIGEN_SAMPLING", EPSILON, RequestParams.of("k", 10), facts(784)).noise()
                .has(NoiseFacts.SAMPLER_FAILURE_BOUND)).isTrue();
        assertThat(CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON, RequestParams.of("k", 1), facts(784))
                .noise().has(NoiseFacts.SAMPLER_FAILURE_BOUND)).isTrue();
        assertThatThrownBy(() -> CATALOG.plan("PCA", "EIGEN_SAMPLING", EPSILON, RequestParams.of("k", 1), facts(5001)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("5000");
        assertThatThrownBy(() -> CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON, RequestParams.of("k", 1),
                facts(5001))).isInstanceOf(PlanningException.class).hasMessageContaining("5000");
        // The mechanism itself refuses past the sampler's proven range, whatever the caller.
        assertThatThrownBy(() -> EigenSamplingMechanism.of(16385, 1, 1,
                NeighbouringRelation.REPLACE_ONE, BigDecimal.ONE))
                .isInstanceOf(PrivacyArgumentException.class)
                .hasMessageContaining("at most 16384 columns");
    }

    @Test
    void planStatesTheFailureBoundAndThePolicy() {
        Plan eigen = CATALOG.plan("PCA", "EIGEN_SAMPLING", EPSILON, RequestParams.of("k", 3), facts(12));
        assertThat(eigen.noise().get(NoiseFacts.SAMPLER_FAILURE_BOUND)).isEqualTo(3 * BinghamAcceptance.FAILURE_BOUND);
        assertThat(eigen.noise().get(NoiseFacts.SAMPLER_POLICY)).contains("data-independent", "charge");
        Plan projection = CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON, RequestParams.of("k", 1), facts(6));
        assertThat(projection.noise().get(NoiseFacts.SAMPLER_FAILURE_BOUND)).isEqualTo(BinghamAcceptance.FAILURE_BOUND);
        Plan peeling = CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON,
                RequestParams.of("k", 4, "spectrum", "PEELING"), facts(6));
        assertThat(peeling.noise().get(NoiseFacts.SAMPLER_FAILURE_BOUND))
                .isEqualTo(4 * BinghamAcceptance.FAILURE_BOUND);
    }
}
