package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.QueryBudget;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The capabilities each linear mechanism declares, which the shared code asks instead of its name. */
class LinearMechanismTest {

    @Test
    void onlyTheOptimisedAndLowRankMechanismsAnswerFromAStoredStrategy() {
        assertThat(Arrays.stream(LinearMechanism.values()).filter(LinearMechanism::answersFromStoredStrategy))
                .containsExactly(LinearMechanism.LOW_RANK_MECHANISM, LinearMechanism.OPTIMIZED);
        assertThat(LinearMechanism.WITH_STORED_STRATEGY).isEqualTo("OPTIMIZED | LOW_RANK_MECHANISM");
        assertThat(LinearMechanism.withStoredStrategy("OPTIMIZED")).isEqualTo(LinearMechanism.OPTIMIZED);
        assertThat(LinearMechanism.withStoredStrategy("HIERARCHICAL")).isNull();
        assertThat(LinearMechanism.withStoredStrategy("")).isNull();
    }

    @Test
    void onlyTheOptimisedStrategyIsSharedByGramAndUnknownNamesAreNot() {
        assertThat(LinearMechanism.strategySharedByGram("OPTIMIZED")).isTrue();
        assertThat(LinearMechanism.strategySharedByGram("LOW_RANK_MECHANISM")).isFalse();
        assertThat(LinearMechanism.strategySharedByGram("NOT_A_MECHANISM")).isFalse();
        assertThat(LinearMechanism.strategySharedByGram((String) null)).isFalse();
    }

    @Test
    void eachConstantDeclaresWhatTheRemovedSwitchesDecided() {
        assertThat(Arrays.stream(LinearMechanism.values()).map(LinearMechanism::form)).containsExactly(
                QueryBudget.Form.PURE_EPSILON, QueryBudget.Form.GAUSSIAN, QueryBudget.Form.PURE_EPSILON,
                QueryBudget.Form.PURE_OR_GAUSSIAN, QueryBudget.Form.PURE_EPSILON, QueryBudget.Form.GAUSSIAN);
        assertThat(Arrays.stream(LinearMechanism.values()).filter(LinearMechanism::measuresWorkload))
                .containsExactly(LinearMechanism.LAPLACE_WORKLOAD);
        assertThat(Arrays.stream(LinearMechanism.values()).filter(LinearMechanism::noiseChosenByParam))
                .containsExactly(LinearMechanism.HIERARCHICAL);
        assertThat(Arrays.stream(LinearMechanism.values()).filter(LinearMechanism::reportsResidual))
                .containsExactly(LinearMechanism.LOW_RANK_MECHANISM);
    }
}
