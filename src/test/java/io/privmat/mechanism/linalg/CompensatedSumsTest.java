package io.privmat.mechanism.linalg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompensatedSumsTest {

    /** 1e16 + ten 1.0s − 1e16: a plain double sum loses the ones (each rounds away), the compensated one keeps them. */
    @Test
    void smallTermsNextToALargeOneAreNotLost() {
        CompensatedSums sums = new CompensatedSums(2);
        double plain = 0;
        sums.add(0, 1e16);
        plain += 1e16;
        for (int i = 0; i < 10; i++) {
            sums.add(0, 1.0);
            plain += 1.0;
            sums.add(1, 0.5);
        }
        sums.add(0, -1e16);
        plain -= 1e16;
        assertThat(plain).isNotEqualTo(10.0);
        assertThat(sums.result()).containsExactly(10.0, 5.0);
    }
}
