package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Privacy parameters below the documented floors are refused with a 400 at quote time. */
class PrivacyFloorsApiTest extends ApiTest {

    private static final String ZCDP = "{\"epsilon\":1,\"delta\":1e-6}";

    @Test
    void tinyEpsilonAndRhoAreRefusedWithA400() {
        String id = readyMatrix(ZCDP, "ADD_REMOVE");
        // Before: 1e-300 was admitted with cost rho 0.0; 1e-400 and rho 1e-40 answered 500.
        for (String query : new String[] {
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1e-300}",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1e-400}",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1e-16}",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":1e-40}"}) {
            Response quote = postJson("/v1/datasets/" + id + "/queries/quote", query);
            assertThat(quote.status()).as(query + " → " + quote).isEqualTo(400);
            JsonNode problem = quote.json();
            assertThat(problem.get("parameter").asString()).isIn("epsilon", "rho", "sigma");
        }
        Response ok = postJson("/v1/datasets/" + id + "/queries/quote",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"LAPLACE\",\"epsilon\":1e-6}");
        assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
    }
}
