package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.Npy;
import java.net.http.HttpRequest;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The two breaks of the privacy review (docs/adr/0011-a-failure-is-an-output.md), through the HTTP
 * API as an analyst met them:
 * <ul>
 *   <li>a linear-query job's DONE/FAILED state depended on a cell count: a 2-cell histogram, a CUSTOM
 *       workload of 2¹⁶ rows (first row (1, 0), the rest zero) and LAPLACE_WORKLOAD at ε = 0.001 ended
 *       DONE on counts [2²⁴ − 1, 0] and FAILED on [2²⁴, 0], every time (the grid rounding threw past
 *       2⁵² steps). Both now end DONE, the large count saturated only where it exceeds 2⁵⁰ grid steps;</li>
 *   <li>PRIVATE_FRANK_WOLFE's MEMORY_LIGHT variant released a float function of the unrounded gradient
 *       Gram plus lattice noise (not DP): it is refused before anything is charged, naming why.</li>
 * </ul>
 */
class PrivacyTotalityApiTest extends ApiTest {

    private String twoCellHistogram(long first) {
        Response created = postJson("/v1/datasets", "{\"name\":\"h\",\"kind\":\"HISTOGRAM\",\"neighbouring\":"
                + "\"ADD_REMOVE\",\"attributes\":[{\"name\":\"a\",\"size\":2}],\"budget\":{\"epsilon\":5,"
                + "\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        Response up = put("/v1/datasets/" + id + "/data", "application/x-npy",
                Npy.bytes("<f8", "(2,)", false, ByteOrder.LITTLE_ENDIAN, 8, first, 0));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    @Test
    void aCellCountNoLongerDecidesWhetherALinearQueryJobFails() {
        // 2¹⁶ rows, one nonzero: the padding rows shrink the grid without raising the sensitivity.
        Response w = send(HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type",
                "application/x-matrix-market").POST(HttpRequest.BodyPublishers.ofString(
                        "%%MatrixMarket matrix coordinate real general\n65536 2 1\n1 1 1\n")));
        assertThat(w.status()).as(w.toString()).isEqualTo(201);
        String workload = w.json().get("id").asString();
        String query = "{\"kind\":\"LINEAR_QUERIES\",\"mechanism\":\"LAPLACE_WORKLOAD\",\"epsilon\":0.001,"
                + "\"params\":{\"workload\":{\"type\":\"CUSTOM\",\"id\":\"" + workload + "\"}}}";
        for (long count : new long[] {(1L << 24) - 1, 1L << 24, 1L << 53}) {
            String dataset = twoCellHistogram(count);
            Response submitted = postJson("/v1/datasets/" + dataset + "/queries", query);
            assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
            JsonNode job = awaitJob(submitted.json().get("id").asString());
            assertThat(job.get("state").asString()).as("count %d: %s", count, job).isEqualTo("DONE");
            JsonNode result = get("/v1/jobs/" + job.get("id").asString() + "/result").json();
            JsonNode answers = result.get("answers");
            assertThat(answers.size()).isEqualTo(65536);
            // The Laplace scale is 1/ε = 1 000 and the grid g = 2⁻²⁸ (the padding shrinks it), so a
            // measurement is released unbiased up to 2⁵⁰·g = 2²² and saturated there beyond: the quote
            // states that level (noise.saturation) before anything is read.
            Response quote = postJson("/v1/datasets/" + dataset + "/queries/quote", query);
            double saturation = quote.json().get("noise").get("saturation").asDouble();
            assertThat(saturation).isEqualTo(0x1p22);
            double first = answers.get(0).asDouble();
            assertThat(Math.abs(first - Math.min(count, saturation))).as("count %d answered %s", count, first)
                    .isLessThan(50_000);
            assertThat(Math.abs(answers.get(1).asDouble())).isLessThan(50_000);
        }
    }

    /** Workload entries so large that the expected error overflows are a 400 before any charge, not a 500. */
    @Test
    void aWorkloadWhoseErrorOverflowsIsRefusedNotAServerError() {
        Response w = send(HttpRequest.newBuilder(uri("/v1/workloads")).header("Content-Type", "text/csv")
                .POST(HttpRequest.BodyPublishers.ofString("1e160,1e160\n1e160,-1e160\n")));
        assertThat(w.status()).as(w.toString()).isEqualTo(201);
        String dataset = twoCellHistogram(10);
        for (String mechanism : new String[] {"LAPLACE_WORKLOAD\",\"epsilon\":1", "GAUSSIAN_IDENTITY\",\"rho\":0.5"}) {
            Response quote = postJson("/v1/datasets/" + dataset + "/queries/quote", "{\"kind\":\"LINEAR_QUERIES\","
                    + "\"mechanism\":\"" + mechanism + ",\"params\":{\"workload\":{\"type\":\"CUSTOM\",\"id\":\""
                    + w.json().get("id").asString() + "\"}}}");
            assertThat(quote.status()).as(quote.toString()).isEqualTo(400);
            assertThat(quote.json().get("parameter").asString()).isEqualTo("params.workload");
        }
    }

    @Test
    void memoryLightFrankWolfeIsRefusedBeforeAnythingIsCharged() {
        Response created = postJson("/v1/datasets", "{\"name\":\"r\",\"kind\":\"RATINGS\",\"neighbouring\":"
                + "\"REPLACE_ONE\",\"ratings\":{\"items\":1,\"min\":1,\"max\":5,\"perUserCap\":1,\"relation\":\"USER\"},"
                + "\"budget\":{\"epsilon\":5,\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        StringBuilder csv = new StringBuilder("user,item,rating\n");
        for (int u = 0; u < 1000; u++) {
            csv.append("u").append(u).append(",0,").append(u == 0 ? "3.1" : String.valueOf(1 + u % 5)).append('\n');
        }
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        String query = "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"epsilon\":1,\"delta\":1e-6,"
                + "\"params\":{\"iterations\":1,\"variant\":\"MEMORY_LIGHT\"}}";
        for (String path : new String[] {"/queries/quote", "/queries"}) {
            Response refused = postJson("/v1/datasets/" + id + path, query);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().get("parameter").asString()).isEqualTo("variant");
            assertThat(refused.json().get("detail").asString()).contains("not differentially private");
        }
        JsonNode spent = get("/v1/datasets/" + id + "/budget").json().get("spent").get("tracks");
        assertThat(spent.valueStream().allMatch(t -> t.decimalValue().signum() == 0)).as(spent.toString()).isTrue();
        // DENSE (and AUTO) still answer.
        Response dense = postJson("/v1/datasets/" + id + "/queries/quote", query.replace("MEMORY_LIGHT", "DENSE"));
        assertThat(dense.status()).as(dense.toString()).isEqualTo(200);
    }
}
