package io.privmat.bench;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.support.FashionMnist;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * One low-rank release on Fashion-MNIST 60 000 × 784 (pixels ÷ 255, rows clipped to norm 1) in this
 * JVM, printing its memory beyond the loaded data: peak RSS (VmHWM, reset after loading), the peak
 * of the heap pools (garbage included) and the largest heap live after a collection. Run in a child
 * JVM by {@link LowRankMemoryBenchmark}; arguments: HARDT_ROTH or RANDOMIZED_RESPONSE.
 */
public final class LowRankMemoryProbe {

    static final int M = 60_000;
    static final int D = 784;
    static final int K = 10;
    static final int OVERSAMPLING = 10;

    private LowRankMemoryProbe() {}

    public static void main(String[] args) throws Exception {
        String mechanism = args[0];
        // The data as stored: chunks of 4 MiB of float64 rows, handed to the mechanism as they are
        // (no copy), so everything allocated beyond them during the release is the mechanism's.
        int blockRows = Math.max(1, (4 << 20) / (8 * D));
        double[][] chunks = new double[(M + blockRows - 1) / blockRows][];
        FashionMnist.forEachImage(M, (index, pixels) -> {
            int chunk = index / blockRows;
            if (chunks[chunk] == null) {
                chunks[chunk] = new double[Math.min(blockRows, M - chunk * blockRows) * D];
            }
            double[] x = chunks[chunk];
            int at = (index - chunk * blockRows) * D;
            double norm = 0;
            for (int c = 0; c < D; c++) {
                double v = (pixels[c] & 0xff) / 255.0;
                x[at + c] = v;
                norm += v * v;
            }
            for (int c = 0; c < D; c++) {
                x[at + c] /= Math.max(1, Math.sqrt(norm));
            }
        });
        RowStream rows = visitor -> {
            for (int chunk = 0; chunk < chunks.length; chunk++) {
                visitor.block(chunks[chunk], chunks[chunk].length / D, (long) chunk * blockRows);
            }
        };
        System.gc();
        System.gc();
        long heapBase = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long rssBase = status("VmRSS");
        Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        AtomicLong liveMax = new AtomicLong(heapBase);
        java.util.Set<String> heapPools = new java.util.HashSet<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
                if (!"com.sun.management.gc.notification".equals(n.getType())) {
                    return;
                }
                var info = com.sun.management.GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long used = 0;
                // Heap pools only (the notification lists every pool: metaspace and code cache too).
                for (var u : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    used += heapPools.contains(u.getKey()) ? u.getValue().getUsed() : 0;
                }
                liveMax.accumulateAndGet(used, Math::max);
            }, null, null);
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        long allocatedBefore = allocatedBytes();
        long t0 = System.nanoTime();
        Factorization f = switch (mechanism) {
            case "HARDT_ROTH" -> HardtRothMechanism.of(M, D, K, OVERSAMPLING, 1, 4, BigDecimal.ONE,
                    new BigDecimal("1e-6")).release(rows, TestNoiseSources.seeded(12));
            case "RANDOMIZED_RESPONSE" -> RandomizedResponseMechanism.forApproxDp(M, D, K, 1, 1, 1e-6)
                    .release(rows, TestNoiseSources.seeded(11));
            default -> throw new IllegalArgumentException(mechanism);
        };
        double seconds = (System.nanoTime() - t0) / 1e9;
        long allocated = allocatedBytes() - allocatedBefore;
        long heapPeak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPeak += pool.getPeakUsage().getUsed();
            }
        }
        System.gc();
        long hwm = status("VmHWM");
        long digest = 0;
        for (double v : f.v()) {
            digest = 31 * digest + Double.doubleToLongBits(v);
        }
        System.out.printf(Locale.ROOT, "probe %s seconds=%.1f data=%d heapBase=%d rssBase=%d rssPeak=%d heapPeak=%d "
                + "liveMax=%d allocated=%d s0=%.6f digest=%016x%n", mechanism, seconds, (long) M * D * 8, heapBase, rssBase,
                hwm, heapPeak, liveMax.get(), allocated, f.s()[0], digest);
    }

    /** Bytes allocated so far by the live threads (the release's and the common pool's). */
    static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long id : threads.getAllThreadIds()) {
            total += Math.max(0, threads.getThreadAllocatedBytes(id));
        }
        return total;
    }

    /** A /proc/self/status field in bytes. */
    static long status(String field) throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return 1024 * Long.parseLong(line.substring(field.length() + 1).replace("kB", "").strip());
            }
        }
        throw new IllegalStateException(field);
    }
}
