package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.covariance.BinghamAcceptance;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exact samplers' policy reaches the contract: the plan's noise facts carry the data-independent
 * failure bound and the policy in words, and the d ≤ 12 limit is stated in the summary and the range
 * of k before anyone tries (and refused at planning, before any charge).
 */
class SamplerPolicyTest {

    private static final MechanismCatalog CATALOG = MechanismCatalog.standard();
    private static final Budget EPSILON = new Budget(BigDecimal.ONE, null, null);

    static PublicFacts facts(int d) {
        return new PublicFacts(DataShape.MATRIX, d, 100L, 1.0, NeighbouringRelation.REPLACE_ONE, AccountingMode.PURE);
    }

    @Test
    void theLimitIsTwelveColumnsAndTheContractSaysSo() {
        assertThat(BinghamAcceptance.maxDimension()).isEqualTo(12);
        for (String name : new String[] {"EIGEN_SAMPLING", "ORBIT_SAMPLING"}) {
            MechanismDefinition m = CATALOG.find(name).orElseThrow();
            assertThat(m.summary()).contains("more than 12 columns are refused at planning");
            assertThat(m.params().stream().filter(p -> p.name().equals("k")).findFirst().orElseThrow().max())
                    .isEqualTo(12.0);
        }
        assertThatThrownBy(() -> CATALOG.plan("PCA", "EIGEN_SAMPLING", EPSILON, Map.of("k", 1), facts(13)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("at most 12 columns");
        assertThatThrownBy(() -> CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON, Map.of("k", 1),
                facts(13))).isInstanceOf(PlanningException.class).hasMessageContaining("at most 12 columns");
    }

    @Test
    void planStatesTheFailureBoundAndThePolicy() {
        Plan eigen = CATALOG.plan("PCA", "EIGEN_SAMPLING", EPSILON, Map.of("k", 3), facts(12));
        assertThat(eigen.noise()).containsEntry("samplerFailureBound", 3 * BinghamAcceptance.FAILURE_BOUND);
        assertThat((String) eigen.noise().get("samplerPolicy")).contains("data-independent", "charge");
        Plan projection = CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON, Map.of("k", 1), facts(6));
        assertThat(projection.noise()).containsEntry("samplerFailureBound", BinghamAcceptance.FAILURE_BOUND);
        Plan peeling = CATALOG.plan("TOP_SINGULAR_VECTORS", "ORBIT_SAMPLING", EPSILON,
                Map.of("k", 4, "spectrum", "PEELING"), facts(6));
        assertThat(peeling.noise()).containsEntry("samplerFailureBound", 4 * BinghamAcceptance.FAILURE_BOUND);
    }
}
