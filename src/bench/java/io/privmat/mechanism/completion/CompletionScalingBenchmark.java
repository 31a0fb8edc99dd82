package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Time and peak heap of the completion mechanisms as users, items and ratings grow
 * (docs/accuracy/completion.md, "Cost"). Data: the synthetic rank-one protocol. Peak heap is the
 * JVM's peak over the run minus the heap in use before it (after a GC, with the input held), so it
 * is the mechanism's own working memory, including its O(|Ω|) copy of the ratings. Run with
 * {@code ./mvnw -o test -Pbenchmark -Dtest=CompletionScalingBenchmark}.
 */
@Tag("benchmark")
class CompletionScalingBenchmark {

    static long heapUsed() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                used += pool.getUsage().getUsed();
            }
        }
        return used;
    }

    static long peakAndReset() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
                pool.resetPeakUsage();
            }
        }
        return peak;
    }

    record Measure(double seconds, double peakMb) {}

    static Measure measure(Supplier<Object> run) {
        System.gc();
        long before = heapUsed();
        peakAndReset();
        long t0 = System.nanoTime();
        Object keep = run.get();
        double seconds = (System.nanoTime() - t0) / 1e9;
        long peak = peakAndReset();
        if (keep == null) {
            throw new IllegalStateException();
        }
        return new Measure(seconds, Math.max(0, peak - before) / 1048576.0);
    }

    static void row(String what, int users, int items, long ratings, int iterations, Measure m) {
        System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %,d | %d | %.1f | %.2f | %.0f |%n", what, users, items, ratings,
                iterations, m.seconds(), m.seconds() / iterations, m.peakMb());
    }

    @Test
    void frankWolfeGrowth() {
        System.out.printf("load average at start: %.2f, cores: %d%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        System.out.println("| mechanism | users | items | ratings | T | seconds | s / iteration | peak MB above input |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        int t = 20;
        int[][] shapes = {{1_250, 400}, {12_500, 400}, {50_000, 400}, {12_500, 1000}, {12_500, 2000}};
        for (int[] shape : shapes) {
            int m = shape[0];
            int n = shape[1];
            CompletionFixtures.Split s = CompletionFixtures.rankOne(m, n, 80, 1, 3);
            long ratings = 80L * m;
            double k = 2 * Math.sqrt(m / 3.0) * Math.sqrt(n / 3.0);
            FrankWolfeParameters p = FrankWolfeParameters.of(s.domain(), RatingsRelation.USER, k, t);
            Measure r = measure(() -> PrivateFrankWolfeMechanism.forApproxDp(p, 1, 1e-6).release(s.train(),
                    TestNoiseSources.seeded(1)));
            row("private FW, q = 24", m, n, ratings, t, r);
            if (n <= 1000) {
                SvdCompletionParameters sp = new SvdCompletionParameters(s.domain(), RatingsRelation.USER, 5,
                        SvdCompletionParameters.LocalFit.LEAST_SQUARES, 1e-3);
                row("private SVD, r = 5", m, n, ratings, 1, measure(() -> PrivateSvdMechanism.forApproxDp(sp, 1, 1e-6)
                        .release(s.train(), TestNoiseSources.seeded(1))));
                AlsParameters ap = new AlsParameters(s.domain(), RatingsRelation.USER, 5, 5, 0.1, 10, 0.3, 0.1);
                row("private ALS, r = 5", m, n, ratings, 5, measure(() -> DpAlsMechanism.forApproxDp(ap, 1, 1e-6)
                        .release(s.train(), TestNoiseSources.seeded(1))));
            }
        }
    }
}
