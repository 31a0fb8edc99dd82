package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.Npy;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Workloads: uploaded once in any matrix format, stored exactly with a content hash, public, immutable. */
class WorkloadApiTest extends ApiTest {

    @Autowired
    WorkloadService workloads;

    private Response upload(String contentType, byte[] body, String query) {
        return send(HttpRequest.newBuilder(uri("/v1/workloads" + query)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theSameMatrixInEveryFormatHasTheSameValuesAndHash() {
        Response csv = upload("text/csv", text("1,1,0,0\n0,0,1,1\n"), "?name=halves");
        assertThat(csv.status()).as(csv.toString()).isEqualTo(201);
        JsonNode w = csv.json();
        assertThat(w.get("rows").asInt()).isEqualTo(2);
        assertThat(w.get("cols").asInt()).isEqualTo(4);
        assertThat(w.get("name").asString()).isEqualTo("halves");
        String id = w.get("id").asString();
        assertThat(workloads.values(UUID.fromString(id))).containsExactly(1, 1, 0, 0, 0, 0, 1, 1);
        Response mm = upload("application/x-matrix-market", text("%%MatrixMarket matrix coordinate real general\n"
                + "2 4 4\n2 4 1\n1 1 1\n2 3 1\n1 2 1\n"), "");
        Response npy = upload("application/x-npy", Npy.bytes("<f8", "(2, 4)", false, ByteOrder.LITTLE_ENDIAN, 8,
                1, 1, 0, 0, 0, 0, 1, 1), "");
        assertThat(mm.json().get("sha256").asString()).isEqualTo(w.get("sha256").asString());
        assertThat(npy.json().get("sha256").asString()).isEqualTo(w.get("sha256").asString());
        assertThat(get("/v1/workloads/" + id).json().get("sha256").asString()).isEqualTo(w.get("sha256").asString());
        // Another caller may read it (workloads are public) but not delete it.
        assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/workloads/" + id)).GET()).status())
                .isEqualTo(200);
        assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/workloads/" + id)).DELETE()).status())
                .isEqualTo(404);
        assertThat(delete("/v1/workloads/" + id).status()).isEqualTo(204);
        assertThat(get("/v1/workloads/" + id).status()).isEqualTo(404);
    }

    @Test
    void badWorkloadsAreRefused() {
        assertThat(upload("text/csv", text("1,NaN\n"), "").status()).isEqualTo(422);
        assertThat(upload("text/csv", text(""), "").status()).isEqualTo(422);
        assertThat(upload("text/csv", text("1,2\n3\n"), "").status()).isEqualTo(422);
        assertThat(upload("application/json", text("[[1]]"), "").status()).isEqualTo(415);
        assertThat(upload("text/csv", text("1\n"), "?name=a%01b").status()).isEqualTo(400);
        // More values than allowed: refused from the header, before anything is allocated.
        Response huge = upload("application/x-matrix-market", text("%%MatrixMarket matrix coordinate real general\n"
                + "100000 100000 1\n1 1 1\n"), "");
        assertThat(huge.status()).as(huge.toString()).isEqualTo(422);
        Response wide = upload("application/x-npy", Npy.bytes("<f8", "(1, 5000000)", false,
                ByteOrder.LITTLE_ENDIAN, 8, 1), "");
        assertThat(wide.status()).as(wide.toString()).isEqualTo(422);
        assertThat(get("/v1/workloads/" + UUID.randomUUID()).json().get("type").asString())
                .endsWith("/workload-not-found");
    }
}
