package io.privmat.mechanism.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ClopperPearsonTest {

    @Test
    void matchesTheTabulatedExactInterval() {
        // 95 % two-sided exact interval for 5 of 10: [0.187086, 0.812914] (Beta quantiles).
        assertThat(ClopperPearson.lower(5, 10, 0.025)).isCloseTo(0.187086, within(1e-6));
        assertThat(ClopperPearson.upper(5, 10, 0.025)).isCloseTo(0.812914, within(1e-6));
        // k = 0 of n: upper bound 1 − α^(1/n).
        assertThat(ClopperPearson.upper(0, 1000, 0.05)).isCloseTo(1 - Math.pow(0.05, 1e-3), within(1e-9));
        assertThat(ClopperPearson.lower(0, 1000, 0.05)).isZero();
    }

    @Test
    void logGammaMatchesFactorials() {
        assertThat(ClopperPearson.logGamma(11)).isCloseTo(Math.log(3_628_800), within(1e-12));
        assertThat(ClopperPearson.logGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-12));
    }
}
