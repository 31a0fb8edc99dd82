package io.privmat.mechanism.noise;

/**
 * The only way main code obtains randomness: {@link #secure()}, a per-thread buffered ChaCha20
 * keystream keyed from {@link java.security.SecureRandom}, and {@link #keyed}, the stream of one
 * index under a secret 256-bit key that itself comes from {@code SecureRandom}
 * ({@link #newStreamKey()}). There is no seeded factory here; tests build deterministic sources
 * through a test-only factory in the same package.
 */
public final class NoiseSources {

    private static final ThreadLocal<NoiseSource> PER_THREAD = ThreadLocal.withInitial(ChaCha20NoiseSource::new);
    /** Length of a stream key in bytes (a ChaCha20 key). */
    public static final int STREAM_KEY_BYTES = 32;
    private static final java.security.SecureRandom KEYS = new java.security.SecureRandom();

    private NoiseSources() {}

    /** This thread's CSPRNG-backed source. Do not share it across threads. */
    public static NoiseSource secure() {
        return PER_THREAD.get();
    }

    /**
     * A fresh secret stream key: 256 bits from {@link java.security.SecureRandom}. The holder keeps
     * it as secret as the data it protects (whoever knows the key can recompute, and subtract, every
     * noise draw made with it) and never releases it.
     */
    public static byte[] newStreamKey() {
        byte[] key = new byte[STREAM_KEY_BYTES];
        KEYS.nextBytes(key);
        return key;
    }

    /**
     * The noise stream of one index under a secret key: a ChaCha20 keystream whose key material is
     * ChaCha20(key, nonce = tag ‖ index) — a pseudo-random function of the index. The same (key,
     * index) always yields the same stream, so a computation that must be repeated (a release
     * recomputed after a restart) draws exactly the same noise; distinct indices yield unrelated
     * streams, so distinct releases get fresh noise.
     *
     * <p>This is not a seed in the forbidden sense: the key is 256 bits from
     * {@link #newStreamKey()}, never derived from public or guessable values, kept secret by the
     * service like {@link NoiseSource#replayable()}'s key (only it is persisted, because the
     * computation that needs it spans restarts). Under the standard assumption that ChaCha20 is a
     * PRF, the streams of distinct indices are indistinguishable from independent uniform bits to
     * anyone without the key — the same assumption {@link #secure()} rests on.
     *
     * @param key a {@link #STREAM_KEY_BYTES}-byte secret key
     * @param streamIndex the index (≥ 0), e.g. the release's block number
     */
    public static NoiseSource keyed(byte[] key, long streamIndex) {
        if (key.length != STREAM_KEY_BYTES) {
            throw new IllegalArgumentException("a stream key has " + STREAM_KEY_BYTES + " bytes");
        }
        if (streamIndex < 0) {
            throw new IllegalArgumentException("streamIndex must be >= 0");
        }
        return ChaCha20NoiseSource.keyed(key, streamIndex);
    }
}
