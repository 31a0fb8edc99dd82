package io.privmat.mechanism.noise;

import java.util.SplittableRandom;

/**
 * Test-only factory of deterministic sources: the same ChaCha20 keystream as production, keyed
 * from a seed instead of SecureRandom. Lives in test code only, so no main code path can select it.
 */
public final class TestNoiseSources {

    private TestNoiseSources() {}

    public static NoiseSource seeded(long seed) {
        SplittableRandom keys = new SplittableRandom(seed);
        return new ChaCha20NoiseSource(() -> {
            byte[] material = new byte[44];
            keys.nextBytes(material);
            return material;
        });
    }

    /**
     * A source that yields the given 32-bit words, then zeros (scripted random bits), through
     * {@link NoiseSource#nextInt} only: any other read fails, so a scripted test also checks that
     * DiscreteGaussianSampler takes every random bit through its buffer (its samples a function
     * of the stream alone).
     */
    public static NoiseSource scripted(int... words) {
        return new NoiseSource() {
            private int next;

            @Override
            public long nextLong() {
                throw new AssertionError("64-bit read of a scripted source");
            }

            @Override
            public long nextLong(long bound) {
                throw new AssertionError("uniform below " + bound + " read from a scripted source");
            }

            @Override
            public boolean nextBit() {
                throw new AssertionError("bit read of a scripted source");
            }

            @Override
            public int nextInt() {
                return next < words.length ? words[next++] : 0;
            }

            @Override
            public NoiseSource split() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Replayable replayable() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
