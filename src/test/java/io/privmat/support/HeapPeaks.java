package io.privmat.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/** Heap measurements for benchmark harnesses: reset the pools' peaks, then read them. */
public final class HeapPeaks {

    private HeapPeaks() {}

    /** What an action returned, how long it took, and {@link #read()} right after it. */
    public record Measured<T>(T value, double seconds, long[] heap) {}

    /** Runs an action after a GC and a reset of the peaks; times it and reads the heap right after. */
    public static <T> Measured<T> measure(java.util.function.Supplier<T> action) {
        System.gc();
        reset();
        long start = System.nanoTime();
        T value = action.get();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Measured<>(value, seconds, read());
    }

    public static void reset() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /**
     * [sum of heap pool peaks, largest old-generation usage right after a collection, peak of the
     * old generation], in bytes. What survives young collections (data held for the length of an
     * upload) ends in the old generation, so its peak bounds that from above.
     */
    public static long[] read() {
        long peak = 0;
        long live = 0;
        long old = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
                if (pool.getName().toLowerCase(Locale.ROOT).contains("old")) {
                    old = Math.max(old, pool.getPeakUsage().getUsed());
                    if (pool.getCollectionUsage() != null) {
                        live = Math.max(live, pool.getCollectionUsage().getUsed());
                    }
                }
            }
        }
        return new long[] {peak, live, old};
    }
}
