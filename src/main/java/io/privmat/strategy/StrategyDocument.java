package io.privmat.strategy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.mechanism.linear.StrategyInfo;
import org.jspecify.annotations.Nullable;

/**
 * A strategy's public facts, stored with it as its {@code info} JSON (docs/adr/0009-strategy-cache.md)
 * and shown by {@code GET /v1/strategies/{key}}: its task's facts ({@link PublicArtifacts.TaskInfo})
 * and, once computed, the strategy's own ({@link StrategyInfo}). Absent members are left out of the
 * stored JSON, except the objective and lower bound of a computed strategy, written as null when not
 * finite. Every document stored so far reads back, including those of strategies keyed by their Gram
 * stored with a workload hash and kind before they were left out.
 *
 * @param expectedRmsePerUnitNoise √(objective/queries), when both are known and the objective finite
 * @param computeMillis how long the computation took; absent when the strategy was stored again
 *     for a release after it had been pruned
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record StrategyDocument(String mechanism, @Nullable String gramHash, @Nullable String workloadHash,
        @Nullable String workloadKind, @Nullable Integer cells, @Nullable Integer queries, @Nullable String options,
        @Nullable Double estimatedSeconds, @Nullable Long estimatedBytes, @Nullable String method,
        @Nullable String parameters, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Double objective,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Double lowerBound, @Nullable Integer iterations,
        @Nullable Boolean converged, @Nullable Double expectedRmsePerUnitNoise, @Nullable Long computeMillis) {

    /** The facts of a task, before its strategy is computed. */
    static StrategyDocument of(PublicArtifacts.TaskInfo t) {
        return new StrategyDocument(t.mechanism(), t.gramHash(), t.workloadHash(), t.workloadKind(), t.cells(),
                t.queries(), t.options(), t.estimatedSeconds(), t.estimatedBytes(), null, null, null, null, null, null,
                null, null);
    }

    /** Only the mechanism: a strategy stored again on a replica that did not resolve its task. */
    static StrategyDocument mechanism(String mechanism) {
        return new StrategyDocument(mechanism, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null);
    }

    /** These task facts with a computed strategy's own. */
    StrategyDocument computed(StrategyInfo info, @Nullable Long computeMillis) {
        Double rmse = queries != null && Double.isFinite(info.objective())
                ? Math.sqrt(info.objective() / queries.doubleValue()) : null;
        return new StrategyDocument(mechanism, gramHash, workloadHash, workloadKind, cells, queries, options,
                estimatedSeconds, estimatedBytes, info.method(), info.parameters(), finite(info.objective()),
                finite(info.lowerBound()), info.iterations(), info.converged(), rmse, computeMillis);
    }

    private static @Nullable Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
