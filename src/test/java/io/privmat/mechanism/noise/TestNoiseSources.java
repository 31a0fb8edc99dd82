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

    /** A source that yields the given 32-bit words, then zeros (scripted random bits). */
    public static NoiseSource scripted(int... words) {
        return new NoiseSource() {
            private int next;

            @Override
            public long nextLong() {
                return ((long) nextInt() << 32) | (nextInt() & 0xFFFFFFFFL);
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
