package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the LINEAR_QUERIES answers' 95% intervals (the method of {@link IntervalCoverageTest}):
 * the IDENTITY workload on the contract tests' 8-cell histogram, so the truth is the histogram itself.
 * Gaussian answers and Laplace noise on W·x are EXACT intervals (coverage consistent with 95%); Laplace
 * noise propagated through a strategy gets Chebyshev's sd/√α, a BOUND (coverage at least 95%).
 */
class LinearQueryCoverageTest {

    static final double[] COUNTS = {12, 0, 3, 40, 7, 7, 1, 25};

    static IntervalCoverageTest.Coverage coverage(String mechanism, QueryBudget budget, AccountingMode mode, long seed) {
        Plan plan = IntervalCoverageTest.plan(mechanism, "LINEAR_QUERIES", budget,
                Map.of("workload", Map.of("type", "IDENTITY")),
                MechanismContractTest.histogramFacts(NeighbouringRelation.ADD_REMOVE, mode, 95));
        return IntervalCoverageTest.entries(plan, InMemoryData.histogram(COUNTS.clone()), "answers", COUNTS, seed);
    }

    @Test
    void gaussianAnswersCoverAtTheirLevel() {
        QueryBudget rho = new QueryBudget(null, null, new BigDecimal("0.5"));
        coverage("GAUSSIAN_IDENTITY", rho, AccountingMode.ZCDP, 3000).check();
        coverage("OPTIMIZED", rho, AccountingMode.ZCDP, 4000).check();
        coverage("HIERARCHICAL", rho, AccountingMode.ZCDP, 5000).check();
    }

    @Test
    void laplaceAnswersCoverAtLeastTheirLevel() {
        QueryBudget eps = new QueryBudget(BigDecimal.ONE, null, null);
        coverage("LAPLACE_WORKLOAD", eps, AccountingMode.PURE, 6000).check();
        coverage("LAPLACE_IDENTITY", eps, AccountingMode.PURE, 7000).check();
        coverage("HIERARCHICAL", eps, AccountingMode.PURE, 8000).check();
    }
}
