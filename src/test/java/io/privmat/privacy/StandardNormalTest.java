package io.privmat.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StandardNormalTest {

    /** Reference values from scipy.stats.norm.cdf (double precision). */
    @ParameterizedTest
    @CsvSource({
        "0, 0.5",
        "-1, 0.15865525393145707",
        "1, 0.8413447460685429",
        "-2.5, 0.006209665325776132",
        "-3.5, 0.00023262907903552502",
        "-5, 2.866515718791933e-07",
        "-10, 7.61985302416047e-24",
        "-20, 2.7536241186061556e-89",
        "-37, 5.7255712225239266e-300"
    })
    void cdfMatchesReferenceToRelative1e12(double x, double expected) {
        assertThat(StandardNormal.cdf(x)).isCloseTo(expected, withinPercentage(1e-10));
    }

    @Test
    void logCdfStaysFiniteFarBeyondUnderflow() {
        // log Φ(−50) = −1254.8313611... (scipy.stats.norm.logcdf)
        assertThat(StandardNormal.logCdf(-50)).isCloseTo(-1254.8313611394199, within(1e-9));
        assertThat(StandardNormal.logCdf(-1000)).isCloseTo(-500007.8266948122, within(1e-6));
        assertThat(StandardNormal.cdf(-50)).isZero();
    }

    @Test
    void cdfIsMonotoneAcrossTheSeriesAndContinuedFractionSwitch() {
        double previous = 0;
        for (double x = -8; x <= 8; x += 0.001) {
            double v = StandardNormal.cdf(x);
            assertThat(v).isGreaterThanOrEqualTo(previous);
            previous = v;
        }
    }

    @Test
    void symmetry() {
        for (double x = 0; x < 6; x += 0.37) {
            assertThat(StandardNormal.cdf(x) + StandardNormal.cdf(-x)).isCloseTo(1.0, within(1e-14));
        }
    }

    /** scipy.special.erfc; the series/continued-fraction switch is at 0.5. */
    @ParameterizedTest
    @CsvSource({
        "0.3, 0.6713732405408726",
        "0.5, 0.4795001221869535",
        "1.0, 0.15729920705028516",
        "1.5, 0.03389485352468927",
        "2.0, 0.004677734981047266",
        "2.5, 0.00040695201744495886"
    })
    void erfcToRelative1e14(double z, double expected) {
        assertThat(StandardNormal.erfc(z)).isCloseTo(expected, withinPercentage(1e-12));
    }
}
