package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.ComputeBudget;
import io.privmat.mechanism.catalog.OptimizationControl;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 1, in the pure mechanism: a strategy's cost from public sizes before anything runs,
 * a deterministic work cap on OPTIMIZED, and workloads with the same Gram sharing one strategy.
 */
class StrategyBudgetTest {

    /** Ten minutes at two billion operations a second, 512 MiB: the service's defaults. */
    static final ComputeBudget DEFAULT = new ComputeBudget(600 * 2e9, 512L << 20, 2e9);

    private static Workload ranges(Domain d, int[][] boxes) {
        List<Box> list = new ArrayList<>();
        for (int[] b : boxes) {
            list.add(new Box(new int[] {b[0]}, new int[] {b[1]}));
        }
        return Workload.ranges(d, list);
    }

    @Test
    void theIssuesWorkloadIsRefusedFromItsSizesAlone() {
        // Two boxes on a 4 096-cell attribute: one 4 096 × 4 096 eigendecomposition per iteration.
        Workload w = ranges(Domain.of(4096), new int[][] {{0, 1000}, {5, 2000}});
        OptimizerOptions capped = OptimizerOptions.defaults().withMaxWork(DEFAULT.maxFlops());
        StrategyCost cost = StrategyCost.optimized(w, capped);
        assertThat(cost.fits(DEFAULT)).isFalse();
        assertThat(DEFAULT.seconds(cost.minimumFlops())).as("8 iterations at n = 4096").isGreaterThan(600);
        assertThat(cost.bytes()).as("about 13 n² doubles").isGreaterThan(1L << 30);
        // 1 024 cells fit, and a product workload with small attributes costs almost nothing.
        assertThat(StrategyCost.optimized(ranges(Domain.of(1024), new int[][] {{0, 10}}), capped).fits(DEFAULT))
                .isTrue();
        StrategyCost marginals = StrategyCost.optimized(Workload.marginals(Domain.of(16, 16, 16, 16, 16), 2), capped);
        assertThat(DEFAULT.seconds(marginals.flops())).isLessThan(60);
        // The Low-Rank Mechanism on all ranges of 1 024 cells: r ≈ 1 229, far over ten minutes.
        StrategyCost lowRank = StrategyCost.lowRank(Workload.allRange(Domain.of(1024)), LowRankOptions.defaults());
        assertThat(lowRank.fits(DEFAULT)).isFalse();
        assertThat(StrategyCost.lowRank(Workload.allRange(Domain.of(64)), LowRankOptions.defaults()).fits(DEFAULT))
                .isTrue();
    }

    @Test
    void aWorkCapStopsTheOptimiserDeterministicallyWithAValidStrategy() {
        Workload w = Workload.prefix(Domain.of(128));
        ProductStrategy free = Strategies.optimized(w, OptimizerOptions.defaults(), OptimizationControl.none());
        assertThat(free.info().iterations()).isGreaterThan(3);
        // Room for exactly three iterations (and the factor's build).
        double work = 3 * StrategyCost.convexIteration(128) + StrategyCost.convexBuild(128) + 4.0 * 128 * 128 + 10.0 * 1;
        OptimizerOptions capped = OptimizerOptions.defaults().withMaxWork(work);
        ProductStrategy a = Strategies.optimized(w, capped, OptimizationControl.none());
        ProductStrategy b = Strategies.optimized(w, capped, OptimizationControl.none());
        assertThat(a.info().iterations()).isEqualTo(3);
        assertThat(a.info().converged()).isFalse();
        assertThat(StrategyCodec.encode(a)).as("the same bytes every time").isEqualTo(StrategyCodec.encode(b));
        // Valid (unit column norms) and no worse than the identity, but not better than the uncapped one.
        assertThat(a.maxColumnL2()).isCloseTo(1, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(a.info().objective()).isGreaterThanOrEqualTo(free.info().objective())
                .isLessThan(Strategies.identity(w).info().objective());
        assertThat(capped.canonical()).as("the cap is part of the key").isNotEqualTo(OptimizerOptions.defaults()
                .canonical());
        // Too little for one iteration: the identity factor, still a valid strategy.
        ProductStrategy none = Strategies.optimized(w, OptimizerOptions.defaults().withMaxWork(1), OptimizationControl.none());
        assertThat(none.info().iterations()).isZero();
    }

    @Test
    void workloadsWithTheSameGramShareOneStrategy() {
        Domain d = Domain.of(64);
        Workload ab = ranges(d, new int[][] {{0, 10}, {5, 40}, {30, 63}});
        Workload ba = ranges(d, new int[][] {{30, 63}, {0, 10}, {5, 40}});
        Workload other = ranges(d, new int[][] {{0, 10}, {5, 41}, {30, 63}});
        assertThat(ab.hash()).as("different workloads: answers in another order").isNotEqualTo(ba.hash());
        assertThat(ab.gramHash()).as("the same WᵀW").isEqualTo(ba.gramHash());
        assertThat(other.gramHash()).as("one number changed: another Gram").isNotEqualTo(ab.gramHash());
        String options = OptimizerOptions.defaults().canonical();
        assertThat(Strategies.cacheKey(ab, LinearMechanism.OPTIMIZED, options))
                .isEqualTo(Strategies.cacheKey(ba, LinearMechanism.OPTIMIZED, options));
        assertThat(Strategies.cacheKey(ab, LinearMechanism.LOW_RANK_MECHANISM, options))
                .as("the Low-Rank Mechanism factors W itself").isNotEqualTo(Strategies.cacheKey(ba,
                        LinearMechanism.LOW_RANK_MECHANISM, options));
        ProductStrategy s = Strategies.optimized(ab, OptimizerOptions.defaults(), OptimizationControl.none());
        ProductStrategy t = Strategies.optimized(ba, OptimizerOptions.defaults(), OptimizationControl.none());
        assertThat(StrategyCodec.encode(s)).isEqualTo(StrategyCodec.encode(t));
        // One strategy serves both, each with its own expected error (its own query order).
        LinearBudget rho = new LinearBudget.Rho(0.5);
        LinearQueryPlan pa = LinearQueryPlan.of(ab, LinearMechanism.OPTIMIZED, rho,
                NeighbouringRelation.ADD_REMOVE, s);
        LinearQueryPlan pb = LinearQueryPlan.of(ba, LinearMechanism.OPTIMIZED, rho,
                NeighbouringRelation.ADD_REMOVE, s);
        assertThat(pb.expectedError().totalSquaredError())
                .isCloseTo(pa.expectedError().totalSquaredError(), org.assertj.core.api.Assertions.within(1e-9));
        assertThat(pb.standardDeviations()[0]).as("ba lists ab's third box first").isEqualTo(pa.standardDeviations()[2]);
    }
}
