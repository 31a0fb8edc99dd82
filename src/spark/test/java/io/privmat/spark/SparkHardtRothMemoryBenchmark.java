package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The driver's heap for Hardt–Roth with its two passes on the executors (docs/scale-out.md, "Limits"):
 * m rows (default 10⁶, {@code -Dprivmat.bench.rows}), d = 32, k = 10, p = 10 (ℓ = 20), on embedded
 * {@code local[2]}. The rows: 10⁵ seeded rows ({@link SparkTestData#matrix}) in the vector layout, 8
 * files, repeated by hard links ({@link SparkGramBenchmark#copies}). A warm-up pass over the same files
 * (column sums) first, then the heap after a full collection is the base. Reported beyond the base,
 * heap pools only, per row of m:
 * <ul>
 *   <li>the live heap after a full collection at the start of the second pass (Q̃ held, XΩ's pass
 *       done), and after the release (its factors held);</li>
 *   <li>the largest heap after any collection during the release (GC notifications; garbage still
 *       in the old generation counts, so this is an upper bound on the live peak). The executors
 *       share this JVM in {@code local[2]}: their partition buffers count here too, so this bounds
 *       a standalone driver's from above;</li>
 *   <li>the bytes the release's own thread (the driver's) allocated: every m × ℓ or m × k array the
 *       driver makes, and nothing the executors do.</li>
 * </ul>
 * Run: {@code ./mvnw -o test -Pspark,benchmark -Dtest=SparkHardtRothMemoryBenchmark}.
 */
@Tag("benchmark")
class SparkHardtRothMemoryBenchmark {

    static final int D = 32;
    static final int K = 10;
    static final int P = 10;
    static final double B = 1;
    static final int BASE = 100_000;

    @Test
    void theDriversHeapPerRow() throws Exception {
        int m = Integer.getInteger("privmat.bench.rows", 1_000_000);
        int times = Math.max(1, m / BASE);
        m = times * BASE;
        Path dir = SparkTestData.tempDir();
        try {
            ExternalSchema base = SparkTestData.writeVector(SparkTestData.matrix(BASE, D, B, 20), dir, "base",
                    SparkTestData.Vector.BINARY, 8, (long) BASE);
            ExternalSchema source = SparkGramBenchmark.copies(base, dir.resolve("rows"), times);
            SparkDataAccess access = SparkTestData.access(source, SparkTestData.facts(D, B, (long) m,
                    NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
            access.columnSums(); // warm-up: the session's caches, the reader's classes
            HardtRothMechanism hr = HardtRothMechanism.of(m, D, K, P, B, 1, BigDecimal.ONE, new BigDecimal("1e-6"));
            int l = hr.oversampledRank();

            long base0 = liveHeap();
            AtomicLong maxAfterGc = new AtomicLong(base0);
            Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
                    .collect(Collectors.toSet());
            javax.management.NotificationListener listener = (n, h) -> {
                if ("com.sun.management.gc.notification".equals(n.getType())) {
                    var info = com.sun.management.GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                    long used = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
                            .filter(e -> heapPools.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed()).sum();
                    maxAfterGc.accumulateAndGet(used, Math::max);
                }
            };
            for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
            }
            long[] atSecondPass = new long[1];
            RowStream probed = SparkRowSketchesTest.aroundSecondPass(access.rows(2), pass -> {
                atSecondPass[0] = liveHeap();
                return pass.get();
            });
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            long started = System.nanoTime();
            Factorization f = hr.release(probed, TestNoiseSources.seeded(3));
            double seconds = (System.nanoTime() - started) / 1e9;
            long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
            for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).removeNotificationListener(listener);
            }
            long after = liveHeap();
            assertThat(f.u()).hasSize(m * K);
            double unit = 8.0 * m;
            String out = String.format(Locale.ROOT, "%nspark Hardt-Roth driver heap, local[2], m = %d, d = %d, ℓ = %d, "
                    + "k = %d, %.1f s; beyond the base, bytes per row (÷ 8: doubles per row):%n"
                    + "  live at the second pass (Q̃ held):      %.1f (%.2f × ℓ doubles)%n"
                    + "  live after the release (factors held): %.1f%n"
                    + "  largest heap after any GC (upper bound): %.1f (%.2f × ℓ doubles)%n"
                    + "  allocated by the driver's thread:       %.1f (%.2f × ℓ doubles)%n",
                    m, D, l, K, seconds, (atSecondPass[0] - base0) / (double) m, (atSecondPass[0] - base0) / unit / l,
                    (after - base0) / (double) m, (maxAfterGc.get() - base0) / (double) m,
                    (maxAfterGc.get() - base0) / unit / l, allocated / (double) m, allocated / unit / l);
            System.out.println(out);
            Path report = Path.of("target", "benchmarks", "spark-hardt-roth-memory.txt");
            Files.createDirectories(report.getParent());
            Files.writeString(report, out);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static long liveHeap() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
