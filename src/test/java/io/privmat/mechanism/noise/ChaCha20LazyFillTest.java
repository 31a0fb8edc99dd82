package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The lazily filled ChaCha20 source draws exactly the values of the eager 64 KiB fill it replaced
 * (a reference copy of that fill below), for any mix of 32-bit, 64-bit and 1-bit draws across
 * chunk boundaries — so seeded and keyed outputs did not change.
 */
class ChaCha20LazyFillTest {

    /** The former eager source: 64 KiB of keystream per refill, the same skip rule at chunk ends. */
    private static final class EagerReference {
        private final byte[] stream = new byte[1 << 16];
        private final ByteBuffer view = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
        private final Cipher cipher;
        private int position = 1 << 16;
        private long bits;
        private int bitCount;

        EagerReference(byte[] material) throws Exception {
            cipher = Cipher.getInstance("ChaCha20");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(material, 0, 32, "ChaCha20"),
                    new ChaCha20ParameterSpec(java.util.Arrays.copyOfRange(material, 32, 44), 0));
        }

        private void refill() throws Exception {
            cipher.update(new byte[1 << 16], 0, 1 << 16, stream, 0);
            position = 0;
        }

        long nextLong() throws Exception {
            if (position > (1 << 16) - 8) {
                refill();
            }
            long v = view.getLong(position);
            position += 8;
            return v;
        }

        int nextInt() throws Exception {
            if (position > (1 << 16) - 4) {
                refill();
            }
            int v = view.getInt(position);
            position += 4;
            return v;
        }

        boolean nextBit() throws Exception {
            if (bitCount == 0) {
                bits = nextLong();
                bitCount = 64;
            }
            boolean bit = bits < 0;
            bits <<= 1;
            bitCount--;
            return bit;
        }
    }

    @Test
    void drawsTheSameValuesAsTheEagerFill() throws Exception {
        SplittableRandom script = new SplittableRandom(4);
        for (int trial = 0; trial < 5; trial++) {
            byte[] material = new byte[44];
            script.nextBytes(material);
            EagerReference reference = new EagerReference(material.clone());
            ChaCha20NoiseSource lazy = new ChaCha20NoiseSource(ChaCha20NoiseSource.derivedKeys(material.clone()));
            // About 400 KiB of mixed draws: crosses six chunk boundaries, with odd 4-byte offsets.
            for (int op = 0; op < 60_000; op++) {
                switch (script.nextInt(3)) {
                    case 0 -> assertThat(lazy.nextLong()).isEqualTo(reference.nextLong());
                    case 1 -> assertThat(lazy.nextInt()).isEqualTo(reference.nextInt());
                    default -> {
                        for (int b = 0; b < 70; b++) {
                            assertThat(lazy.nextBit()).isEqualTo(reference.nextBit());
                        }
                    }
                }
            }
        }
    }
}
