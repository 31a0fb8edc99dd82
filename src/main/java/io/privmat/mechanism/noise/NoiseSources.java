package io.privmat.mechanism.noise;

/**
 * The only way main code obtains randomness: {@link #secure()}, a per-thread buffered ChaCha20
 * keystream keyed from {@link java.security.SecureRandom}. There is no seeded factory here; tests
 * build deterministic sources through a test-only factory in the same package.
 */
public final class NoiseSources {

    private static final ThreadLocal<NoiseSource> PER_THREAD = ThreadLocal.withInitial(ChaCha20NoiseSource::new);

    private NoiseSources() {}

    /** This thread's CSPRNG-backed source. Do not share it across threads. */
    public static NoiseSource secure() {
        return PER_THREAD.get();
    }
}
