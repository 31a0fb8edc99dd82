package io.privmat.api;

import io.privmat.problem.ProblemType;
import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** Hostile request bodies answer a small 4xx problem, quickly, and never a 500 (docs/reliability.md). */
class HostileInputTest extends ApiTest {

    private static final String BUDGET = "{\"epsilon\":1,\"delta\":1e-6}";

    @ParameterizedTest
    @ValueSource(strings = {"1e999999999", "1e50000000", "-1e50000000", "1e-999999999", "1E+2147483647",
        "0e-2147483648", "1e401"})
    void hugeExponentsInTypedFieldsAnswerASmall400(String number) {
        long start = System.nanoTime();
        Response r = postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":" + number
                + ",\"delta\":1e-6}}");
        assertSmallProblem(r, 400);
        assertThat(r.json().get("parameter").asString()).isEqualTo("budget.epsilon");
        assertThat(r.json().get("detail").asString()).contains("budget.epsilon").doesNotContain("999");
        assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"epsilon\":1e999999999", "\"epsilon\":1e50000000,\"delta\":1e-6", "\"rho\":1e-999999999",
        "\"rho\":0.1,\"params\":{\"k\":1e999999999}", "\"rho\":0.1,\"params\":{\"a\":[1,{\"b\":1e-50000000}]}"})
    void hugeExponentsInQueriesAnswerASmall400(String fields) {
        String id = readyMatrix(BUDGET, "REPLACE_ONE");
        for (String path : new String[] {"/queries/quote", "/queries"}) {
            Response r = postJson("/v1/datasets/" + id + path, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\","
                    + fields + "}");
            assertSmallProblem(r, 400);
        }
        assertThat(get("/v1/datasets/" + id + "/budget").json().get("reserved").toString()).doesNotContain("E+");
    }

    @Test
    void numbersAtTheEdgeOfDoubleStillReachTheRangeCheck() {
        Response r = postJson("/v1/datasets", "{\"name\":\"x\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1e308,"
                + "\"delta\":1e-6}}");
        assertSmallProblem(r, 400);
        assertThat(r.json().get("type").asString()).endsWith("/invalid-parameter");
        assertThat(r.json().get("parameter").asString()).isEqualTo("budget.epsilon");
    }

    @Test
    void unknownFieldsAreNamed() {
        Response r = postJson("/v1/datasets", "{\"name\":\"a\",\"kind\":\"GRAPH\",\"epsilom\":1,\"budget\":" + BUDGET + "}");
        assertSmallProblem(r, 400);
        assertThat(r.json().get("parameter").asString()).isEqualTo("epsilom");
        assertThat(r.json().get("detail").asString()).contains("'epsilom'").contains("not a known field");
        Response nested = postJson("/v1/datasets", "{\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":{\"epsilon\":1,"
                + "\"delta\":1e-6,\"mode\":1}}");
        assertThat(nested.json().get("parameter").asString()).isEqualTo("budget.mode");
        Response wrongType = postJson("/v1/datasets", "{\"name\":\"a\",\"kind\":\"GRAPH\",\"budget\":"
                + "{\"epsilon\":\"lots\",\"delta\":1e-6}}");
        assertThat(wrongType.json().get("parameter").asString()).isEqualTo("budget.epsilon");
        assertThat(wrongType.text()).doesNotContain("lots");
    }

    @Test
    void problemDetailsAreBoundedInLength() {
        assertThat(ProblemDetailsAdvice.boundedDetail("x".repeat(100_000))).hasSizeLessThan(1_100);
        assertThat(ProblemDetailsAdvice.bounded("a\u0000b\ud800")).isEqualTo("a?b?");
    }

    private static void assertSmallProblem(Response r, int status) {
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body().length).isLessThan(2_000);
        JsonNode problem = r.json();
        assertThat(problem.get("type").asString()).startsWith(ProblemType.BASE_URI);
    }
}
