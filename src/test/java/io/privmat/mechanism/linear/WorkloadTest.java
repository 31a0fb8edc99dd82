package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WorkloadTest {

    static final Domain SMALL = Domain.of(3, 4, 5);

    static List<Workload> workloads() {
        List<Box> boxes = new ArrayList<>();
        SplittableRandom r = new SplittableRandom(3);
        for (int q = 0; q < 40; q++) {
            int[] lo = new int[3];
            int[] hi = new int[3];
            for (int i = 0; i < 3; i++) {
                int a = r.nextInt(SMALL.size(i));
                int b = r.nextInt(SMALL.size(i));
                lo[i] = Math.min(a, b);
                hi[i] = Math.max(a, b);
            }
            boxes.add(Box.of(SMALL, lo, hi));
        }
        return List.of(Workload.identity(SMALL), Workload.prefix(SMALL), Workload.prefix(SMALL, 1),
                Workload.allRange(SMALL), Workload.allRange(SMALL, 2), Workload.marginals(SMALL, 2),
                Workload.marginals(SMALL, List.of(new int[] {0}, new int[] {1, 2})), Workload.ranges(SMALL, boxes),
                Workload.custom(SMALL, 7, LinearFixtures.related(7, 60, 3, 5)));
    }

    @Test
    void everyStructuredOperationMatchesTheDenseMatrix() {
        double[] x = LinearFixtures.histogram(SMALL.cells(), 11, 9);
        for (Workload w : workloads()) {
            int m = w.queries();
            int n = w.cells();
            double[] dense = LinearFixtures.dense(w);
            double[] expected = LinearFixtures.multiply(dense, m, n, x, 1);
            assertThat(w.answer(x)).as(w.kind()).containsExactly(expected, within(1e-9));
            double[] gram = LinearFixtures.multiply(LinearFixtures.transpose(dense, m, n), n, m, dense, n);
            assertThat(w.denseGram()).as(w.kind()).containsExactly(gram, within(1e-9));
            assertThat(w.kronGram().dense()).as(w.kind()).containsExactly(gram, within(1e-9));
            double frob = 0;
            double maxL1 = 0;
            double maxL2 = 0;
            for (int j = 0; j < n; j++) {
                double l1 = 0;
                double l2 = 0;
                for (int q = 0; q < m; q++) {
                    l1 += Math.abs(dense[q * n + j]);
                    l2 += dense[q * n + j] * dense[q * n + j];
                }
                frob += l2;
                maxL1 = Math.max(maxL1, l1);
                maxL2 = Math.max(maxL2, Math.sqrt(l2));
            }
            assertThat(w.frobeniusSquared()).as(w.kind()).isCloseTo(frob, within(1e-9 * frob));
            assertThat(w.maxColumnL1()).as(w.kind()).isCloseTo(maxL1, within(1e-9 * maxL1));
            assertThat(w.maxColumnL2()).as(w.kind()).isCloseTo(maxL2, within(1e-9 * maxL2));
        }
    }

    @Test
    void generatorsHaveTheirQueryCountsAndOrder() {
        Domain d = Domain.of(6);
        assertThat(Workload.allRange(d).queries()).isEqualTo(21);
        assertThat(Workload.prefix(d).queries()).isEqualTo(6);
        Workload ranges = Workload.allRange(d);
        double[] x = {1, 2, 4, 8, 16, 32};
        double[] a = ranges.answer(x);
        // Ordered by lo then hi: [0,0], [0,1], …, [0,5], [1,1], …
        assertThat(a[0]).isEqualTo(1);
        assertThat(a[5]).isEqualTo(63);
        assertThat(a[6]).isEqualTo(2);
        assertThat(a[20]).isEqualTo(32);
        Workload m2 = Workload.marginals(Domain.of(2, 3, 4), 2);
        assertThat(m2.queries()).isEqualTo(2 * 3 + 2 * 4 + 3 * 4);
        assertThat(Workload.marginals(Domain.of(2, 3, 4), 0).queries()).isEqualTo(1);
    }

    @Test
    void hashesIdentifyTheMatrix() {
        Domain d = Domain.of(8, 8);
        assertThat(Workload.allRange(d).hash()).isEqualTo(Workload.allRange(Domain.of(8, 8)).hash());
        assertThat(Workload.allRange(d).hash()).isNotEqualTo(Workload.prefix(d).hash());
        assertThat(Workload.allRange(d).hash()).isNotEqualTo(Workload.allRange(Domain.of(8, 9)).hash());
        // The same matrix built two ways hashes the same.
        assertThat(Workload.product(d, List.<Generator[]>of(new Generator[] {Generator.ALL_RANGE, Generator.ALL_RANGE}))
                .hash()).isEqualTo(Workload.allRange(d).hash());
        double[] w = LinearFixtures.random01(5, 64, 1);
        double[] w2 = w.clone();
        assertThat(Workload.custom(d, 5, w).hash()).isEqualTo(Workload.custom(d, 5, w2).hash());
        w2[7] = 1 - w2[7];
        assertThat(Workload.custom(d, 5, w).hash()).isNotEqualTo(Workload.custom(d, 5, w2).hash());
        assertThat(Workload.custom(d, 5, w).hash()).hasSize(64).matches("[0-9a-f]+");
    }

    @Test
    void badWorkloadsAreRefusedWithTypedReasons() {
        Domain d = Domain.of(4, 4);
        assertReason(() -> Workload.custom(d, 3, new double[47]), LinearQueryException.Reason.SHAPE_MISMATCH,
                "workload.matrix");
        double[] nan = new double[48];
        nan[5] = Double.NaN;
        assertReason(() -> Workload.custom(d, 3, nan), LinearQueryException.Reason.NOT_FINITE, "workload.matrix");
        double[] inf = new double[48];
        inf[0] = Double.POSITIVE_INFINITY;
        assertReason(() -> Workload.custom(d, 3, inf), LinearQueryException.Reason.NOT_FINITE, "workload.matrix");
        assertReason(() -> Workload.custom(d, 0, new double[0]), LinearQueryException.Reason.EMPTY, "workload.matrix");
        assertReason(() -> Workload.custom(d, 3, new double[48]), LinearQueryException.Reason.INVALID,
                "workload.matrix");
        assertReason(() -> Workload.ranges(d, List.of()), LinearQueryException.Reason.EMPTY, "workload.ranges");
        assertReason(() -> Workload.marginals(d, List.of()), LinearQueryException.Reason.EMPTY, "workload.sets");
        assertReason(() -> Workload.ranges(d, List.of(new Box(new int[] {0, 3}, new int[] {2, 4}))),
                LinearQueryException.Reason.INVALID, "workload.ranges[0][1]");
        assertReason(() -> Workload.ranges(d, List.of(new Box(new int[] {0}, new int[] {2}))),
                LinearQueryException.Reason.SHAPE_MISMATCH, "workload.ranges[0]");
        assertReason(() -> Workload.prefix(d, 2), LinearQueryException.Reason.SHAPE_MISMATCH, "workload.attributes");
        assertReason(() -> Workload.marginals(d, List.of(new int[] {0, 0})), LinearQueryException.Reason.INVALID,
                "workload.sets[0]");
        assertReason(() -> Domain.of(1 << 11, 1 << 10), LinearQueryException.Reason.TOO_LARGE, "domain.sizes");
        assertReason(() -> Domain.of(4, 0), LinearQueryException.Reason.INVALID, "domain.sizes[1]");
        assertReason(() -> Domain.of(), LinearQueryException.Reason.EMPTY, "domain.sizes");
        // All ranges on 2^13 cells: 2^25 + 2^12 queries, above the 2^24 limit.
        assertReason(() -> Workload.allRange(Domain.of(1 << 13)), LinearQueryException.Reason.TOO_LARGE, "workload");
        assertReason(() -> Workload.custom(Domain.of(1 << 20), 17, new double[1]), LinearQueryException.Reason.TOO_LARGE,
                "workload.matrix");
        assertReason(() -> Workload.allRange(Domain.of(8192)).denseGram(), LinearQueryException.Reason.TOO_LARGE,
                "workload");
        assertReason(() -> Workload.identity(d).answer(new double[15]), LinearQueryException.Reason.SHAPE_MISMATCH, "x");
    }

    static void assertReason(Runnable r, LinearQueryException.Reason reason, String field) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(LinearQueryException.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.field()).isEqualTo(field);
        });
    }
}
