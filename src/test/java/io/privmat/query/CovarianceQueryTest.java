package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.api.JsonNumbers;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** COVARIANCE and PCA end to end over HTTP, for each mechanism. */
class CovarianceQueryTest extends ApiTest {

    private static final int D = 6;

    private static final int N = 2000;
    /** Exact Σ x₀² of the clipped rows of {@link #dataset}. */
    private double exactC00;

    /** 2000 rows: a strong 2-dimensional signal in the first two columns plus small noise, norm ≤ 1. */
    private String dataset(String neighbouring, String budget) {
        String id = postJson("/v1/datasets", "{\"name\":\"cov\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"" + neighbouring + "\",\"budget\":" + budget + "}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(3);
        StringBuilder csv = new StringBuilder();
        exactC00 = 0;
        for (int r = 0; r < N; r++) {
            double[] row = new double[D];
            double norm = 0;
            for (int c = 0; c < D; c++) {
                row[c] = c < 2 ? (c == 0 ? 0.6 : 0.4) * random.nextGaussian() : 0.05 * random.nextGaussian();
                norm += row[c] * row[c];
                csv.append(c == 0 ? "" : ",").append(row[c]);
            }
            double scale = Math.min(1, 1 / Math.sqrt(norm));
            exactC00 += row[0] * row[0] * scale * scale;
            csv.append('\n');
        }
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        return id;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "ANALYZE_GAUSS  | {\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.5,\"params\":{\"k\":2}}",
        "WISHART        | {\"kind\":\"PCA\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"k\":2}}",
        "EIGEN_SAMPLING | {\"kind\":\"PCA\",\"mechanism\":\"EIGEN_SAMPLING\",\"epsilon\":2,\"params\":{\"k\":2}}"
    })
    void pcaFindsTheSignalSubspaceWithOrthonormalComponents(String mechanism, String query) {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":50,\"delta\":1e-6}");
        JsonNode result = runQuery(id, query);
        double[][] v = matrix(result.get("components"));
        assertThat(v).hasNumberOfRows(D);
        assertThat(v[0]).hasSize(2);
        for (int a = 0; a < 2; a++) {
            for (int b = 0; b < 2; b++) {
                double dot = 0;
                for (int i = 0; i < D; i++) {
                    dot += v[i][a] * v[i][b];
                }
                assertThat(dot).isCloseTo(a == b ? 1 : 0, within(1e-9));
            }
        }
        // The signal lives in coordinates 0 and 1: the private subspace must mostly too.
        double inSignal = 0;
        for (int a = 0; a < 2; a++) {
            inSignal += v[0][a] * v[0][a] + v[1][a] * v[1][a];
        }
        assertThat(inSignal / 2).as(mechanism).isGreaterThan(0.8);
        assertThat(result.get("eigenvalues")).hasSize(2);
        assertThat(result.get("rows").asLong()).isEqualTo(N);
    }

    @Test
    void covarianceIsSymmetricPsdAndAvailableAsNpy() {
        String id = dataset("ADD_REMOVE", "{\"epsilon\":10,\"delta\":1e-6}");
        Response submitted = postJson("/v1/datasets/" + id + "/queries",
                "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":2,\"delta\":1e-7}");
        String job = submitted.json().get("id").asString();
        awaitJob(job);
        JsonNode result = get("/v1/jobs/" + job + "/result").json();
        double[][] c = matrix(result.get("covariance"));
        assertThat(c).hasNumberOfRows(D);
        for (int i = 0; i < D; i++) {
            for (int j = 0; j < D; j++) {
                assertThat(c[i][j]).isEqualTo(c[j][i]);
            }
            assertThat(c[i][i]).isGreaterThanOrEqualTo(0);
        }
        // The second moment of column 0 (noise σ ≈ 2.2 here, so ±20 is ~9σ).
        assertThat(c[0][0]).isCloseTo(exactC00, within(20.0));
        assertThat(result.has("rows")).isFalse(); // n is private under ADD_REMOVE
        Response npy = send(HttpRequest.newBuilder(uri("/v1/jobs/" + job + "/result")).header("Accept",
                "application/x-npy").GET());
        ByteBuffer b = ByteBuffer.wrap(npy.body()).order(ByteOrder.LITTLE_ENDIAN);
        int header = b.getShort(8);
        assertThat(new String(npy.body(), 10, header)).contains("'shape': (6, 6)");
        assertThat(b.getDouble(10 + header)).isEqualTo(c[0][0]);
    }

    @Test
    void centredCovarianceChargesBothStepsAndRemovesTheMean() {
        String id = postJson("/v1/datasets", "{\"name\":\"shifted\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":50,\"delta\":1e-6}}").json().get("id").asString();
        StringBuilder csv = new StringBuilder();
        SplittableRandom random = new SplittableRandom(9);
        for (int r = 0; r < 1000; r++) {
            csv.append(0.5 + 0.1 * random.nextGaussian()).append(',').append(0.1 * random.nextGaussian()).append('\n');
        }
        put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        String q = "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":10,\"params\":{\"center\":true}}";
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", q).json();
        assertThat(quote.get("cost").get("rho").decimalValue()).isLessThanOrEqualTo(new java.math.BigDecimal("10"))
                .isGreaterThan(new java.math.BigDecimal("9.95")); // within 0.5%, as before
        assertThat(quote.get("noise").has("meanSigma")).isTrue();
        JsonNode result = runQuery(id, q);
        double[][] c = matrix(result.get("covariance"));
        // Uncentred c[0][0] would be ≈ 1000·0.26 = 260; centred ≈ 1000·0.01 = 10. The noise is secure
        // (not seeded) here: the private column sum (ρ = 1, σ ≈ 1.4) moves ŝ₀²/n by sd ≈ 1.4, so ±8 is
        // over 5σ (with ρ = 2 it was 2.5σ and failed about 1 run in 100).
        assertThat(c[0][0]).isCloseTo(10, within(8.0));
        assertThat(result.get("centered").asBoolean()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "k zero                 | REPLACE_ONE | {\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1,\"params\":{\"k\":0}} | params.k",
        "k too large            | REPLACE_ONE | {\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1,\"params\":{\"k\":7}} | params.k",
        "k not an integer       | REPLACE_ONE | {\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1,\"params\":{\"k\":1.5}} | params.k",
        "k with AG covariance   | REPLACE_ONE | {\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1,\"params\":{\"k\":2}} | params.k",
        "center with Wishart    | REPLACE_ONE | {\"kind\":\"COVARIANCE\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"center\":true}} | params.center",
        "center, private n      | ADD_REMOVE  | {\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1,\"params\":{\"center\":true}} | params.center",
        "Wishart with rho       | REPLACE_ONE | {\"kind\":\"COVARIANCE\",\"mechanism\":\"WISHART\",\"rho\":0.1} | rho",
        "Wishart epsilon > 2    | REPLACE_ONE | {\"kind\":\"COVARIANCE\",\"mechanism\":\"WISHART\",\"epsilon\":3,\"delta\":1e-7} | epsilon",
        "eigen with delta       | REPLACE_ONE | {\"kind\":\"PCA\",\"mechanism\":\"EIGEN_SAMPLING\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"k\":1}} | delta",
        "unknown param          | REPLACE_ONE | {\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.1,\"params\":{\"k\":1,\"whiten\":true}} | params.whiten",
        "column sums mechanism  | REPLACE_ONE | {\"kind\":\"PCA\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.1,\"params\":{\"k\":1}} | mechanism"
    })
    void invalidCovarianceRequests(String label, String neighbouring, String query, String parameter) {
        String id = dataset(neighbouring, "{\"epsilon\":10,\"delta\":1e-6}");
        Response r = postJson("/v1/datasets/" + id + "/queries/quote", query);
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.json().get("parameter").asString()).isEqualTo(parameter);
    }

    @Test
    void wishartIsChargedOnTheDeltaTrackAndPureAccountingRefusesGaussians() {
        String id = dataset("REPLACE_ONE", "{\"epsilon\":10,\"delta\":1e-6}");
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote",
                "{\"kind\":\"PCA\",\"mechanism\":\"WISHART\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"k\":1}}").json();
        assertThat(quote.get("cost").get("rho").decimalValue()).isEqualByComparingTo("0.5");
        assertThat(quote.get("cost").get("delta").doubleValue()).isEqualTo(JsonNumbers.charged(new java.math.BigDecimal("1e-7")));
        assertThat(quote.get("admissible").asBoolean()).isTrue();
        String pure = dataset("REPLACE_ONE", "{\"epsilon\":2,\"delta\":0,\"accounting\":\"PURE\"}");
        assertThat(postJson("/v1/datasets/" + pure + "/queries/quote",
                "{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":1,\"delta\":1e-7,\"params\":{\"k\":1}}")
                .status()).isEqualTo(422);
        JsonNode eigen = postJson("/v1/datasets/" + pure + "/queries/quote",
                "{\"kind\":\"PCA\",\"mechanism\":\"EIGEN_SAMPLING\",\"epsilon\":1,\"params\":{\"k\":1}}").json();
        assertThat(eigen.get("cost").get("epsilon").decimalValue()).isEqualByComparingTo("1");
        // The quote says which sampler policy applies: a data-independent failure bound (k · 2^-50).
        assertThat(eigen.get("noise").get("samplerFailureBound").asDouble()).isEqualTo(0x1p-50);
        assertThat(eigen.get("noise").get("samplerPolicy").asString()).contains("data-independent", "sqrt(2/(e d))", "d > 5000");
    }
}
