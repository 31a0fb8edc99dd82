package io.privmat.mechanism.noise;

/**
 * A source of uniformly random bits. Production sources are CSPRNG-backed
 * ({@link NoiseSources#secure()}); deterministic sources exist only in test code.
 * Not thread-safe: use one per thread.
 */
public interface NoiseSource {

    /** 64 uniformly random bits. */
    long nextLong();

    /** A uniform integer in [0, bound), bound &gt; 0, without modulo bias (Lemire's method). */
    default long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        if ((bound & (bound - 1)) == 0) {
            return nextLong() & (bound - 1);
        }
        long threshold = Long.remainderUnsigned(-bound, bound);
        while (true) {
            long x = nextLong();
            long low = x * bound;
            if (Long.compareUnsigned(low, threshold) >= 0) {
                return Math.multiplyHigh(x, bound) + ((x >> 63) & bound);
            }
        }
    }

    /** A uniform double in [0, 1) with 53 random bits. For secret intermediates only, never a release. */
    default double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /**
     * An independent source for use on another thread, keyed from this source's output (so a
     * CSPRNG stays a CSPRNG, and a seeded test source stays reproducible).
     */
    NoiseSource split();

    /**
     * A secret, replayable stream keyed from this source: every {@link Replayable#open()} yields
     * the same sequence. For mechanisms that must apply the same noise in two passes over the data
     * (e.g. randomized response: one pass for the Gram of the noisy rows, one for the left factors)
     * without holding it in memory. The key never leaves the job.
     */
    Replayable replayable();

    /** A stream that can be opened again from its start. */
    @FunctionalInterface
    interface Replayable {
        NoiseSource open();
    }

    /** A fair coin. */
    default boolean nextBoolean() {
        return nextLong() < 0;
    }
}
