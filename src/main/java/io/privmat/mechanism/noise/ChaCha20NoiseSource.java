package io.privmat.mechanism.noise;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A buffered ChaCha20 keystream (RFC 8439, the JDK's {@code Cipher "ChaCha20"}) keyed with 256 bits
 * from {@link SecureRandom}. It reads keystream in chunks of 64 KiB (no per-call DRBG overhead) and
 * rekeys from the seed source after every 2^30 bytes, far below ChaCha20's 2^38-byte limit per
 * (key, nonce).
 *
 * <p>A chunk is generated lazily, in pieces of 4, 4, 8, 16 and 32 KiB, so that a source that draws
 * only a few values (one per keyed release, or a small split) costs a 4 KiB fill instead of 64 KiB.
 * The values drawn are exactly those of eager 64 KiB chunks: reads never pass the bytes generated,
 * so a chunk is complete before the next one starts, and the chunk boundaries (where a partial word
 * is skipped) and the rekey points are unchanged.
 */
final class ChaCha20NoiseSource implements NoiseSource {

    private static final int BUFFER_BYTES = 1 << 16;
    private static final long REKEY_BYTES = 1L << 30;

    private final KeySupplier keys;
    /** Smallest piece of a chunk generated at once. */
    private static final int FIRST_PIECE = 1 << 12;
    /** Read-only input: the keystream is ChaCha20 applied to zeros. */
    private static final byte[] ZEROS = new byte[BUFFER_BYTES];

    private final byte[] stream = new byte[BUFFER_BYTES];
    private final ByteBuffer view = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
    private Cipher cipher;
    /** Keystream bytes since the last rekey at the start of the next chunk (a multiple of 64 KiB). */
    private long bytesSinceKey;
    private int position = BUFFER_BYTES;
    /** Bytes of the current chunk generated so far (≤ 64 KiB). */
    private int generated = BUFFER_BYTES;
    /** Unused bits of the last word taken for {@link #nextBit()}, most significant first. */
    private long bits;
    private int bitCount;

    /** Keys from a fresh {@link SecureRandom}. */
    ChaCha20NoiseSource() {
        this(secureKeys(new SecureRandom()));
    }

    /** Keys (32-byte key + 12-byte nonce, 44 bytes) from the given supplier. */
    ChaCha20NoiseSource(KeySupplier keys) {
        this.keys = keys;
        rekey();
    }

    @Override
    public long nextLong() {
        if (position > BUFFER_BYTES - 8) {
            refill();
        }
        if (position + 8 > generated) {
            generate(position + 8);
        }
        long v = view.getLong(position);
        position += 8;
        return v;
    }

    @Override
    public int nextInt() {
        if (position > BUFFER_BYTES - 4) {
            refill();
        }
        if (position + 4 > generated) {
            generate(position + 4);
        }
        int v = view.getInt(position);
        position += 4;
        return v;
    }

    @Override
    public boolean nextBit() {
        if (bitCount == 0) {
            bits = nextLong();
            bitCount = 64;
        }
        boolean bit = bits < 0;
        bits <<= 1;
        bitCount--;
        return bit;
    }

    @Override
    public NoiseSource split() {
        return new ChaCha20NoiseSource(derivedKeys(keyMaterial()));
    }

    @Override
    public Replayable replayable() {
        byte[] material = keyMaterial();
        return () -> new ChaCha20NoiseSource(derivedKeys(material));
    }

    /**
     * Keys for a derived stream: the given material first, then the same key with a fresh nonce at
     * every rekey (the nonce's first 8 bytes XOR a counter), so a long derived stream never repeats
     * a (key, nonce) pair — and a replayed stream rekeys identically.
     */
    static KeySupplier derivedKeys(byte[] material) {
        long[] counter = {0};
        return () -> {
            byte[] next = material.clone();
            long c = counter[0]++;
            for (int b = 0; b < 8; b++) {
                next[32 + b] ^= (byte) (c >>> (8 * b));
            }
            return next;
        };
    }

    private byte[] keyMaterial() {
        byte[] material = new byte[44];
        for (int i = 0; i < 44; i += 8) {
            long v = nextLong();
            for (int b = 0; b < 8 && i + b < 44; b++) {
                material[i + b] = (byte) (v >>> (8 * b));
            }
        }
        return material;
    }

    /** Moves to the next 64 KiB chunk (rekeying every 2^30 bytes); its bytes are generated on demand. */
    private void refill() {
        if (bytesSinceKey >= REKEY_BYTES) {
            rekey();
        }
        bytesSinceKey += BUFFER_BYTES;
        position = 0;
        generated = 0;
    }

    /** Generates keystream until at least {@code need} bytes of the current chunk are available. */
    private void generate(int need) {
        try {
            while (generated < need) {
                int piece = Math.min(BUFFER_BYTES - generated, Math.max(FIRST_PIECE, generated));
                cipher.update(ZEROS, 0, piece, stream, generated);
                generated += piece;
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20 keystream failed", e);
        }
    }

    private void rekey() {
        byte[] material = keys.next();
        try {
            Cipher c = Cipher.getInstance("ChaCha20");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(material, 0, 32, "ChaCha20"),
                    new ChaCha20ParameterSpec(java.util.Arrays.copyOfRange(material, 32, 44), 0));
            cipher = c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20 is not available in this JDK", e);
        } finally {
            java.util.Arrays.fill(material, (byte) 0);
        }
        bytesSinceKey = 0;
    }

    /** Domain tag in the first 4 nonce bytes of the keyed derivation ("pmsk", privmat stream key). */
    private static final byte[] KEYED_TAG = {'p', 'm', 's', 'k'};

    /**
     * The source for one index of a keyed family: its 44 bytes of key material are the first 44
     * bytes of the ChaCha20 keystream under the 256-bit {@code key} with nonce = tag ‖ le64(index)
     * (ChaCha20 used as a pseudo-random function of the index). Distinct indices give unrelated
     * streams; the same (key, index) always gives the same stream.
     */
    static ChaCha20NoiseSource keyed(byte[] key, long index) {
        byte[] nonce = new byte[12];
        System.arraycopy(KEYED_TAG, 0, nonce, 0, 4);
        for (int b = 0; b < 8; b++) {
            nonce[4 + b] = (byte) (index >>> (8 * b));
        }
        byte[] material;
        try {
            Cipher c = Cipher.getInstance("ChaCha20");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, 0, 32, "ChaCha20"), new ChaCha20ParameterSpec(nonce, 0));
            material = c.update(new byte[44]);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20 is not available in this JDK", e);
        }
        return new ChaCha20NoiseSource(derivedKeys(material));
    }

    static KeySupplier secureKeys(SecureRandom random) {
        return () -> {
            byte[] material = new byte[44];
            random.nextBytes(material);
            return material;
        };
    }

    /** Supplies 44 bytes of key material (key ‖ nonce) per call. */
    @FunctionalInterface
    interface KeySupplier {
        byte[] next();
    }
}
