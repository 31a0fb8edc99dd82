package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.linear.ExpectedError;
import io.privmat.mechanism.linear.LinearQueries;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Accuracy is part of the catalogue contract: every mechanism, for every kind, relation and shape of
 * {@link MechanismContractTest#cases()}, states its expected error at quote time and an interval or
 * error bound on each release — a mechanism without them fails here. The statements are checked for
 * form (finite, levelled, every interval containing its estimate) and for monotonicity in the level:
 * a 99% statement is never narrower than a 95% one. Coverage itself is measured per family by
 * {@code IntervalCoverageTest} (docs/accuracy/intervals.md).
 */
class AccuracyContractTest {


    @ParameterizedTest(name = "{0}")
    @MethodSource("io.privmat.mechanism.catalog.MechanismContractTest#cases")
    void quoteStatesTheExpectedError(MechanismContractTest.Case c) {
        Plan plan = MechanismContractTest.plan(c, 1);
        var stated = c.mechanism().expectedError(plan);
        assertThat(stated).as(c + " states its expected error").isNotEmpty();
        for (ErrorStatement e : stated) {
            assertThat(e.value()).as(c + " " + e).isFinite().isGreaterThanOrEqualTo(0);
            assertThat(e.derivation()).isNotBlank();
        }
        // A larger budget never promises a larger error.
        Plan larger = MechanismContractTest.plan(c, 1.25);
        var better = c.mechanism().expectedError(larger);
        assertThat(better).hasSameSizeAs(stated);
        for (int i = 0; i < stated.size(); i++) {
            assertThat(better.get(i).value()).as(c + " " + stated.get(i).metric() + " at 1.25× the budget")
                    .isLessThanOrEqualTo(stated.get(i).value() * (1 + 1e-9));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.privmat.mechanism.catalog.MechanismContractTest#cases")
    void resultCarriesIntervalsAtItsLevel(MechanismContractTest.Case c) {
        Plan plan = MechanismContractTest.plan(c, 1);
        DataAccess data = c.shape() == DataShape.GRAPH
                ? MechanismContractTest.graphPair(plan.spec().facts().cols(), new SplittableRandom(5), 1)[0]
                : c.shape() == DataShape.HISTOGRAM
                        ? MechanismContractTest.histogramPair(c.relation(), new SplittableRandom(5))[0]
                        : c.shape() == DataShape.RATINGS
                        ? MechanismContractTest.ratingsPair(c, new SplittableRandom(5), 1)[0]
                        : MechanismContractTest.matrixPair(c.relation(), new SplittableRandom(5), 1)[0];
        Release release = plan.release(data, MechanismContractTest.seeded(11));
        ResultAccuracy a95 = c.mechanism().accuracy(plan, release, 0.95);
        ResultAccuracy a99 = c.mechanism().accuracy(plan, release, 0.99);
        assertThat(a95.level()).isEqualTo(0.95);
        assertThat(a95.intervals().size() + a95.bounds().size()).as(c + " states intervals or bounds").isPositive();
        assertThat(a95.note()).isNotEqualTo("not stated");
        for (int s = 0; s < a95.intervals().size(); s++) {
            IntervalSet i95 = a95.intervals().get(s);
            IntervalSet i99 = a99.intervals().get(s);
            assertThat(i95.level()).isEqualTo(0.95);
            for (int i = 0; i < i95.estimate().length; i++) {
                assertThat(i95.lower()[i]).isFinite();
                assertThat(i95.upper()[i]).isFinite();
                assertThat(i99.lower()[i]).as(c + " " + i95.quantity()).isLessThanOrEqualTo(i95.lower()[i]);
                assertThat(i99.upper()[i]).as(c + " " + i95.quantity()).isGreaterThanOrEqualTo(i95.upper()[i]);
            }
        }
        for (int s = 0; s < a95.bounds().size(); s++) {
            ErrorStatement b95 = a95.bounds().get(s);
            assertThat(b95.value()).isFinite();
            if (b95.level() != null) {
                assertThat(a99.bounds().get(s).value()).as(c + " " + b95.metric())
                        .isGreaterThanOrEqualTo(b95.value());
            }
        }
    }

    /** A linear-query plan's exact error maps onto statements without loss. */
    @org.junit.jupiter.api.Test
    void linearQueryErrorsMapOntoStatements() {
        var e = new ExpectedError(2.5, 62.5, 4.0, 1.0, "L2", 10, 0.0);
        var stated = LinearQueries.statements(e);
        assertThat(stated).hasSize(1);
        assertThat(stated.get(0).metric()).isEqualTo("rmsePerQuery");
        assertThat(stated.get(0).value()).isEqualTo(2.5);
        assertThat(stated.get(0).basis()).isEqualTo(ErrorBasis.EXACT);
        var lowRank = LinearQueries.statements(new ExpectedError(2.5, 62.5, 4.0, 1.0, "L2", 10,
                0.3));
        assertThat(lowRank).hasSize(2);
        assertThat(lowRank.get(1).value()).isEqualTo(0.3);
    }
}
