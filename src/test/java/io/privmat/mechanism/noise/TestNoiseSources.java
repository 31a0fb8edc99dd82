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
}
