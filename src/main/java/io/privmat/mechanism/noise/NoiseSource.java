package io.privmat.mechanism.noise;

/**
 * A source of uniformly random bits. Production sources are CSPRNG-backed
 * ({@link NoiseSources#secure()}); deterministic sources exist only in test code.
 * Not thread-safe: use one per thread.
 */
public interface NoiseSource {

    /** 64 uniformly random bits. */
    long nextLong();

    /** 32 uniformly random bits. Sources that buffer keystream override it to use only 4 bytes. */
    default int nextInt() {
        return (int) (nextLong() >>> 32);
    }

    /**
     * One uniformly random bit. Sources that buffer keystream override it to use one bit of a
     * 64-bit word; the exact samplers draw most of their randomness bit by bit.
     */
    default boolean nextBit() {
        return nextLong() < 0;
    }

    /**
     * A uniform integer in [0, bound), bound &gt; 0, without modulo bias (Lemire's method): 32
     * random bits when bound ≤ 2^32, else 64; the rejection threshold's division runs only in the
     * rare case that can reject.
     */
    default long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive");
        }
        if ((bound & (bound - 1)) == 0) {
            return bound <= (1L << 32) ? (nextInt() & 0xFFFFFFFFL) & (bound - 1) : nextLong() & (bound - 1);
        }
        if (bound < (1L << 32)) {
            long product = (nextInt() & 0xFFFFFFFFL) * bound;
            long low = product & 0xFFFFFFFFL;
            if (low < bound) {
                long threshold = ((1L << 32) - bound) % bound;
                while (low < threshold) {
                    product = (nextInt() & 0xFFFFFFFFL) * bound;
                    low = product & 0xFFFFFFFFL;
                }
            }
            return product >>> 32;
        }
        long x = nextLong();
        long low = x * bound;
        if (Long.compareUnsigned(low, bound) < 0) {
            long threshold = Long.remainderUnsigned(-bound, bound);
            while (Long.compareUnsigned(low, threshold) < 0) {
                x = nextLong();
                low = x * bound;
            }
        }
        return Math.multiplyHigh(x, bound) + ((x >> 63) & bound);
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
        return nextBit();
    }
}
