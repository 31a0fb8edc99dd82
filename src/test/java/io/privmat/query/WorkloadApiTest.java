package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.problem.PrivmatException;
import io.privmat.query.workload.WorkloadService;
import io.privmat.support.Npy;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Workloads: uploaded once in any matrix format, stored exactly with a content hash, public,
 * immutable; stored as what they are (issue 36, item 2): sparse content sparse, identical content
 * once for every caller, a binary upload of the largest workload accepted.
 */
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

    /** The stored size of a workload's content, read from the database. */
    private long storedPayload(String sha256) {
        return jdbc.queryForObject("SELECT octet_length(payload) FROM workload_content WHERE sha256 = ?", Long.class,
                sha256);
    }

    @Test
    void aSparseBodyIsStoredSparse() {
        // 70 bytes declaring 1024 × 4096 (4 194 304 values, 32 MiB dense) with one entry: issue 36's attack.
        byte[] body = text("%%MatrixMarket matrix coordinate real general\n1024 4096 1\n7 9 1\n");
        Response r = upload("application/x-matrix-market", body, "?name=sparse");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        JsonNode w = r.json();
        assertThat(w.get("encoding").asString()).isEqualTo("SPARSE");
        assertThat(w.get("nonZeros").asLong()).isEqualTo(1);
        assertThat(w.get("storedBytes").asLong()).isEqualTo(16);
        assertThat(storedPayload(w.get("sha256").asString())).as("stored, not 32 MiB").isEqualTo(16);
        double[] values = workloads.values(UUID.fromString(w.get("id").asString()));
        assertThat(values).hasSize(1024 * 4096);
        assertThat(values[6 * 4096 + 8]).isEqualTo(1);
        assertThat(java.util.Arrays.stream(values).filter(v -> v != 0).count()).isEqualTo(1);
        // Dense content stays dense, and -0.0 survives a sparse encoding (it is part of the hash).
        Response dense = upload("text/csv", text("1,2\n3,4\n"), "");
        assertThat(dense.json().get("encoding").asString()).isEqualTo("DENSE");
        assertThat(dense.json().get("storedBytes").asLong()).isEqualTo(32);
        Response negativeZero = upload("text/csv", text("-0.0,0,0,0,0,0,0,0,0,0\n"), "");
        assertThat(negativeZero.json().get("encoding").asString()).isEqualTo("SPARSE");
        assertThat(Double.doubleToRawLongBits(workloads.values(UUID.fromString(negativeZero.json().get("id")
                .asString()))[0])).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void identicalContentIsStoredOnceWithAReferencePerCaller() {
        byte[] body = text("1,0,0,3\n0,2,0,0.40625\n");
        Response mine = upload("text/csv", body, "?name=mine");
        assertThat(mine.status()).isEqualTo(201);
        String sha = mine.json().get("sha256").asString();
        Response again = upload("text/csv", body, "?name=again");
        assertThat(again.status()).as("the same caller gets its workload back").isEqualTo(200);
        assertThat(again.json().get("id").asString()).isEqualTo(mine.json().get("id").asString());
        Response theirs = sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/workloads?name=theirs"))
                .header("Content-Type", "text/csv").POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertThat(theirs.status()).isEqualTo(201);
        assertThat(theirs.json().get("id").asString()).isNotEqualTo(mine.json().get("id").asString());
        assertThat(theirs.json().get("storedBytes").asLong()).as("counted in full for each caller")
                .isEqualTo(mine.json().get("storedBytes").asLong());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM workload_content WHERE sha256 = ?", Long.class, sha))
                .as("stored once").isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM workload WHERE sha256 = ?", Long.class, sha)).isEqualTo(2);
        // Deleting one reference keeps the content for the other; the last one takes it along.
        assertThat(delete("/v1/workloads/" + mine.json().get("id").asString()).status()).isEqualTo(204);
        assertThat(workloads.values(UUID.fromString(theirs.json().get("id").asString()))).containsExactly(
                1, 0, 0, 3, 0, 2, 0, 0.40625);
        assertThat(sendAs(analystKey(), HttpRequest.newBuilder(uri("/v1/workloads/" + theirs.json().get("id")
                .asString())).DELETE()).status()).isEqualTo(204);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM workload_content WHERE sha256 = ?", Long.class, sha))
                .isZero();
    }

    /**
     * Review of issue 36, F5: a small stored payload (here 2 SPARSE entries standing for a 64 × 1024
     * matrix) is decoded and checked against its address once per replica, not on every plan; a
     * stored payload that changes is decoded and checked again, so a corrupted store is still refused.
     */
    @Test
    void storedContentIsDecodedOnceAndCheckedAgainWhenItsBytesChange() {
        Response r = upload("application/x-matrix-market", text("%%MatrixMarket matrix coordinate real general\n"
                + "64 1024 2\n64 1024 0.59375\n1 7 3\n"), "");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("encoding").asString()).isEqualTo("SPARSE");
        UUID id = UUID.fromString(r.json().get("id").asString());
        double[] first = workloads.values(id);
        assertThat(first).hasSize(64 * 1024);
        assertThat(first[6]).isEqualTo(3);
        assertThat(workloads.values(id)).as("not decoded again").isSameAs(first);
        assertThat(jdbc.update("UPDATE workload_content SET payload = set_byte(payload, octet_length(payload) - 1, "
                + "get_byte(payload, octet_length(payload) - 1) # 1) WHERE sha256 = (SELECT sha256 FROM workload "
                + "WHERE id = ?)", id)).isEqualTo(1);
        assertThatThrownBy(() -> workloads.values(id)).isInstanceOf(PrivmatException.class);
    }

    @Test
    void theLargestWorkloadIsAcceptedAsNpy() {
        // 256 × 512 float64: 1 MiB of values plus the header, over the 1 MiB JSON-body cap (issue 33, item 8).
        double[] values = new double[256 * 512];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i % 7) * 0.25;
        }
        Response r = upload("application/x-npy", Npy.bytes("<f8", "(256, 512)", false, ByteOrder.LITTLE_ENDIAN, 8,
                values), "");
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("rows").asInt()).isEqualTo(256);
        // 4 194 304 values (the limit) fit the workload body cap; a JSON body of that size does not.
        Response limit = upload("application/x-npy", Npy.bytes("<f8", "(2048, 2048)", false, ByteOrder.LITTLE_ENDIAN, 8,
                new double[2048 * 2048]), "");
        assertThat(limit.status()).as(limit.toString()).isEqualTo(201);
        assertThat(limit.json().get("encoding").asString()).isEqualTo("SPARSE");
        Response tooLarge = upload("application/x-npy", new byte[(32 << 20) + (64 << 10) + 1], "");
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.json().get("detail").asString()).contains("max-workload-body");
        assertThat(postJson("/v1/datasets", "{\"name\":\"" + "x".repeat(2 << 20) + "\"}").status()).isEqualTo(413);
    }
}
