package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** NoiseSources.keyed: a pseudo-random function of (secret key, index), replayable and distinct per index. */
class KeyedNoiseSourceTest {

    private static byte[] key(int fill) {
        byte[] k = new byte[NoiseSources.STREAM_KEY_BYTES];
        Arrays.fill(k, (byte) fill);
        return k;
    }

    private static long[] draw(NoiseSource s, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = s.nextLong();
        }
        return out;
    }

    @Test
    void theSameKeyAndIndexReplayTheSameStreamIncludingSplits() {
        NoiseSource a = NoiseSources.keyed(key(7), 42);
        NoiseSource b = NoiseSources.keyed(key(7), 42);
        assertThat(draw(a, 1000)).containsExactly(draw(b, 1000));
        assertThat(draw(a.split(), 100)).containsExactly(draw(b.split(), 100));
        // Past a rekey (2^30 bytes is too long for a unit test; the 64 KiB refill boundary is crossed).
        assertThat(draw(a, 20_000)).containsExactly(draw(b, 20_000));
    }

    @Test
    void distinctIndicesAndKeysGiveUnrelatedStreams() {
        Set<Long> firsts = new HashSet<>();
        for (long index = 0; index < 2000; index++) {
            firsts.add(NoiseSources.keyed(key(1), index).nextLong());
        }
        assertThat(firsts).hasSize(2000);
        assertThat(NoiseSources.keyed(key(1), 5).nextLong()).isNotEqualTo(NoiseSources.keyed(key(2), 5).nextLong());
        assertThat(draw(NoiseSources.keyed(key(3), 0), 4)).doesNotContain(draw(NoiseSources.keyed(key(3), 1), 4));
    }

    @Test
    void bitsLookUniform() {
        NoiseSource s = NoiseSources.keyed(key(9), 123);
        int n = 200_000;
        long ones = 0;
        for (int i = 0; i < n; i++) {
            ones += s.nextBit() ? 1 : 0;
        }
        // Binomial(n, 1/2): standard deviation √n/2 ≈ 224; 5 standard deviations.
        assertThat(Math.abs(ones - n / 2.0)).isLessThan(5 * Math.sqrt(n) / 2);
    }

    @Test
    void refusesBadKeysAndIndices() {
        assertThatThrownBy(() -> NoiseSources.keyed(new byte[16], 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NoiseSources.keyed(key(1), -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void newStreamKeysAre256RandomBits() {
        byte[] a = NoiseSources.newStreamKey();
        byte[] b = NoiseSources.newStreamKey();
        assertThat(a).hasSize(32);
        assertThat(a).isNotEqualTo(b);
    }
}
