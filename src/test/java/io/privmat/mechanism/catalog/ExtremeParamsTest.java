package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.privmat.mechanism.catalog.MechanismContractTest.Case;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric analyst parameter at the ends of its declared range (clip, gradientClip, entryBound,
 * nuclearRadius, stepSize, ridges, initScale … at Double.MIN_NORMAL and at their maximum), one at a
 * time (and 1e-300, 1e-160, 1e-100 for those whose minimum is MIN_NORMAL), on every case: the plan
 * is refused (a 400 before any charge) or its release neither throws nor
 * releases NaN (docs/adr/0011-a-failure-is-an-output.md).
 */
class ExtremeParamsTest {

    static List<Case> cases() {
        return TotalityContractTest.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void numericParametersAtTheEndsOfTheirRangeAreRefusedOrTotal(Case c) {
        int cols = MechanismContractTest.plan(c, 1).spec().facts().cols();
        SplittableRandom random = new SplittableRandom(5);
        int n = MechanismContractTest.N;
        DataAccess data = c.shape() == DataShape.GRAPH ? MechanismContractTest.graphPair(cols, random, 1)[0]
                : c.shape() == DataShape.HISTOGRAM ? MechanismContractTest.randomHistogram(random, n)
                : c.shape() == DataShape.RATINGS ? RatingsData.random(random, n)
                : MechanismContractTest.randomMatrix(random, n);
        PublicFacts facts = MechanismContractTest.factsOf(c, data, cols);
        for (Param p : c.mechanism().params()) {
            if (p.type() != Param.Type.NUMBER || p.min() == null || p.max() == null) {
                continue;
            }
            // Tiny values in between too, where B²-like products are subnormal (grids used to be clamped).
            double[] values = p.min() == Double.MIN_NORMAL ? new double[] {p.min(), 1e-300, 1e-160, 1e-100, p.max()}
                    : new double[] {p.min(), p.max()};
            for (double value : values) {
                Map<String, Object> params = MechanismContractTest.params(c);
                params.put(p.name(), value);
                String what = c + " with " + p.name() + " = " + value;
                Plan plan;
                try {
                    plan = MechanismCatalog.standard().plan(c.kind().name(), c.mechanism().name(),
                            MechanismContractTest.budget(c.mechanism(), c.shape(), 1), RequestParams.of(params), facts);
                } catch (PlanningException refused) {
                    continue;
                } catch (RuntimeException thrown) {
                    fail("%s: planning threw %s (a 500, not a 400)", what, thrown);
                    return;
                }
                Release release;
                try {
                    release = plan.release(data, MechanismContractTest.seeded(1));
                } catch (RuntimeException thrown) {
                    fail("%s threw after the charge: %s", what, thrown);
                    return;
                }
                assertThat(Arrays.stream(MechanismContractTest.values(release)).noneMatch(Double::isNaN))
                        .as("%s: no released value is NaN", what).isTrue();
            }
        }
    }
}
