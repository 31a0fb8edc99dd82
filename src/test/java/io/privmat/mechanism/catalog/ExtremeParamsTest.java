package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.privmat.mechanism.catalog.MechanismContractTest.Case;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric analyst parameter at the ends of its declared range (entryBound, nuclearRadius,
 * stepSize, ridges, initScale … at Double.MIN_NORMAL, clip and gradientClip at 1e-100, each at its
 * maximum), one at a time, on every case: the plan is refused (a 400 before any charge) or its
 * release neither throws nor releases NaN (docs/adr/0011-a-failure-is-an-output.md). Tiny values too
 * (MIN_NORMAL, 1e-300, 1e-160, 1e-100) for a minimum of MIN_NORMAL or 1e-100: below the declared
 * minimum they are refused by the declared range (a 400 naming the parameter), and no value inside
 * it is refused by the noise guard for a too small scale (PrivacyFloors.scaleTooSmall, naming
 * {@code bound}) — the declared range says what is accepted.
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
            // Tiny values too, where B²-like products are subnormal (grids used to be clamped): inside the
            // range of a MIN_NORMAL minimum, below that of a clip's (its square is a sensitivity).
            boolean tiny = p.min() == Double.MIN_NORMAL || p.min() == PublicFacts.MIN_ROW_NORM_BOUND;
            double[] values = tiny ? DoubleStream.of(Double.MIN_NORMAL, 1e-300, 1e-160, 1e-100, p.min(), p.max())
                    .distinct().toArray() : new double[] {p.min(), p.max()};
            for (double value : values) {
                Map<String, Object> params = MechanismContractTest.params(c);
                params.put(p.name(), value);
                String what = c + " with " + p.name() + " = " + value;
                boolean below = value < p.min();
                Plan plan;
                try {
                    plan = MechanismCatalog.standard().plan(c.kind().name(), c.mechanism().name(),
                            MechanismContractTest.budget(c.mechanism(), c.shape(), 1), RequestParams.of(params), facts);
                } catch (PlanningException refused) {
                    Object parameter = refused.properties().get("parameter");
                    if (below) {
                        assertThat(parameter).as("%s: refused by the declared range (%s)", what, refused.getMessage())
                                .isEqualTo("params." + p.name());
                    } else {
                        assertThat(parameter).as("%s: a value in the declared range refused by the noise guard (%s)",
                                what, refused.getMessage()).isNotEqualTo("bound");
                    }
                    continue;
                } catch (RuntimeException thrown) {
                    fail("%s: planning threw %s (a 500, not a 400)", what, thrown);
                    return;
                }
                if (below) {
                    fail("%s: planned below the declared minimum %s", what, p.min());
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
