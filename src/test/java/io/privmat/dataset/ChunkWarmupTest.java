package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ChunkWarmupTest {

    @Test
    void bothLayoutsDecodeToThePattern() {
        int cols = 784;
        int count = 4 * cols;
        double last = 0;
        double total = 0;
        for (int i = 0; i < count; i++) {
            double value = i % 2 == 0 ? 0 : (1 + i % 255) / 256.0;
            total += value;
            last = value;
        }
        // Per call and layout: the densified chunk's last entry plus every visited entry. A chunk
        // decoded wrongly (a shifted index, a lost row, the wrong byte order) changes the sum.
        double expected = ChunkWarmup.CALLS * 2 * (last + total);
        assertThat(ChunkWarmup.run(cols)).isCloseTo(expected, within(expected * 1e-9));
    }
}
