package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The rendering rule of README "Numbers" on single values and stored documents. */
class JsonNumbersTest {

    private static final BigDecimal LONG = new BigDecimal("0.004997111300349108622346235722408697");

    @Test
    void chargesRoundUpAvailableAmountsDownGivenValuesToNearest() {
        double up = JsonNumbers.charged(LONG);
        double down = JsonNumbers.available(LONG);
        assertThat(new BigDecimal(up)).isGreaterThanOrEqualTo(LONG);
        assertThat(new BigDecimal(down)).isLessThanOrEqualTo(LONG);
        assertThat(Math.nextUp(down)).isEqualTo(up);
        // A decimal that is a double stays that double either way.
        BigDecimal half = new BigDecimal("0.5");
        assertThat(JsonNumbers.charged(half)).isEqualTo(0.5);
        assertThat(JsonNumbers.available(half)).isEqualTo(0.5);
        // 0.1 is not a double: the nearest double is above it, so the largest double below is shown.
        assertThat(JsonNumbers.charged(new BigDecimal("0.1"))).isEqualTo(0.1);
        assertThat(JsonNumbers.available(new BigDecimal("0.1"))).isEqualTo(Math.nextDown(0.1));
        assertThat(JsonNumbers.given(new BigDecimal("0.1"))).isEqualTo(0.1);
        assertThat(JsonNumbers.charged(null)).isNull();
    }

    @Test
    void storedDocumentsShowTheirDecimalsAsDoubles() {
        String stored = "{\"mechanism\":{\"notion\":\"Gaussian\",\"l2Sensitivity\":2.0000000000018,\"sigma\":"
                + Math.PI * 7 + ",\"rho\":" + LONG + ",\"mu\":0.09997}," + "\"charged\":{\"notion\":\"zCDP\",\"rho\":"
                + LONG + ",\"parts\":3,\"delta\":0}}";
        String shown = JsonNumbers.lossDocument(stored);
        String rho = Double.toString(JsonNumbers.charged(LONG));
        assertThat(shown).isEqualTo(stored.replace(LONG.toString(), rho));
        // Rendered once per stored text: a second view of the same document is not parsed again.
        assertThat(JsonNumbers.lossDocument(new String(stored))).isSameAs(shown);
        assertThat(JsonNumbers.parametersDocument("{\"rho\":" + LONG + ",\"params\":{\"k\":2}}"))
                .isEqualTo("{\"rho\":" + LONG.doubleValue() + ",\"params\":{\"k\":2}}");
        // Short documents are returned as they are.
        String plain = "{\"epsilon\":0.3,\"delta\":1.0E-6}";
        assertThat(JsonNumbers.lossDocument(plain)).isSameAs(plain);
        assertThat(JsonNumbers.lossDocument(null)).isNull();
    }

    @Test
    void aResultHasOnlyItsLossRewritten() {
        String result = "{\"jobId\":\"j\",\"columns\":[\"a\",\"b\"],\"loss\":{\"charged\":{\"rho\":" + LONG
                + "}},\"noise\":{\"sigma\":0.30000000000000004},\"columnSums\":[1.2345678901234567,2.5]}";
        String shown = JsonNumbers.resultDocument(result);
        assertThat(shown).isEqualTo(result.replace(LONG.toString(), Double.toString(JsonNumbers.charged(LONG))));
        String clean = shown;
        assertThat(JsonNumbers.resultDocument(clean)).isSameAs(clean);
        assertThat(JsonNumbers.isShortestDouble("0.30000000000000004")).isTrue();
        assertThat(JsonNumbers.isShortestDouble("0.53029426549400838")).isFalse();
    }
}
