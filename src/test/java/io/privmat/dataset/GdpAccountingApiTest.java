package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import org.junit.jupiter.api.Test;

/** A dataset with GDP accounting (docs/adr/0007-gdp-accounting.md) through the API. */
class GdpAccountingApiTest extends ApiTest {

    @Test
    void aGaussianQueryAtTheWholeBudgetIsAdmittedOnceUnderGdpAndNeverUnderZcdp() {
        String gdp = readyMatrix("{\"epsilon\":1,\"delta\":1e-6,\"accounting\":\"GDP\"}", "REPLACE_ONE");
        assertThat(get("/v1/datasets/" + gdp).json().get("budget").get("accounting").asString()).isEqualTo("GDP");
        String query = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"epsilon\":1,\"delta\":1e-6}";
        JsonNodeCheck.done(runQuery(gdp, query));
        Response second = postJson("/v1/datasets/" + gdp + "/queries", query);
        assertThat(second.status()).as(second.toString()).isEqualTo(409);

        String zcdp = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        Response refused = postJson("/v1/datasets/" + zcdp + "/queries", query);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
    }

    @Test
    void gdpNeedsDeltaAndChargesPureEpsilonThroughItsGdpConversion() {
        Response noDelta = postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":1,\"delta\":0,\"accounting\":\"GDP\"}}");
        assertThat(noDelta.status()).isEqualTo(400);
        String gdp = readyMatrix("{\"epsilon\":1,\"delta\":1e-6,\"accounting\":\"GDP\"}", "REPLACE_ONE");
        // Pure ε converts to μ = 2Φ⁻¹(e^ε/(1+e^ε)): ε = 0.05 fits (μ ≈ 0.063 < μ_B ≈ 0.237), while
        // ε = 0.5 (μ ≈ 0.62) does not — GDP is poor for pure mechanisms (ADR 0007).
        Response small = postJson("/v1/datasets/" + gdp + "/queries/quote",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":0.05}");
        assertThat(small.status()).as(small.toString()).isEqualTo(200);
        assertThat(small.json().get("admissible").asBoolean()).as(small.toString()).isTrue();
        Response large = postJson("/v1/datasets/" + gdp + "/queries/quote",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":0.5}");
        assertThat(large.json().get("admissible").asBoolean()).as(large.toString()).isFalse();
    }

    /** Small helper so the first test reads as a sentence. */
    private static final class JsonNodeCheck {
        static void done(tools.jackson.databind.JsonNode result) {
            assertThat(result.get("columnSums").size()).isEqualTo(3);
        }
    }
}
