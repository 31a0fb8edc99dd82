package io.privmat.release;

import io.privmat.api.FactsJson;
import io.privmat.mechanism.catalog.ReleaseMeta;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/** SQL of releases. */
@Repository
class ReleaseRepository {

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    ReleaseRepository(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    void insert(NewRelease r, Instant now) {
        byte[] payload;
        if (r.float32()) {
            ByteBuffer b = ByteBuffer.allocate(r.data().length * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (double v : r.data()) {
                b.putFloat((float) v);
            }
            payload = b.array();
        } else {
            ByteBuffer b = ByteBuffer.allocate(r.data().length * 8).order(ByteOrder.LITTLE_ENDIAN);
            b.asDoubleBuffer().put(r.data());
            payload = b.array();
        }
        jdbc.update("INSERT INTO release (id, dataset_id, job_id, kind, mechanism, parameters, loss, meta, rows, cols, "
                        + "encoding, payload, created_at) VALUES (?,?,?,?,?,?::jsonb,?::jsonb,?::jsonb,?,?,?,?,?)",
                r.id(), r.datasetId(), r.jobId(), r.kind().name(), r.mechanism(), r.parametersJson(), r.lossJson(),
                json.writeValueAsString(r.meta()), r.rows(), r.cols(), r.float32() ? "FLOAT32" : "FLOAT64", payload,
                Timestamp.from(now));
    }

    /** A release whose job is DONE (a cancelled job's release is never served). */
    /** The subject that submitted the job which produced a release. */
    Optional<String> submitter(UUID releaseId) {
        return jdbc.queryForList("SELECT j.caller FROM release r JOIN job j ON j.id = r.job_id WHERE r.id = ?",
                String.class, releaseId).stream().findFirst();
    }

    /** The release of {@code kind} a DONE job stored, if any. */
    Optional<UUID> findByJob(UUID jobId, ReleaseKind kind) {
        return jdbc.queryForList("SELECT id FROM release WHERE job_id = ? AND kind = ?", UUID.class, jobId, kind.name())
                .stream().findFirst();
    }

    Optional<StoredRelease> findServable(UUID id) {
        return jdbc.query("SELECT r.id, r.dataset_id, r.job_id, r.kind, r.mechanism, r.parameters, r.loss, r.meta, "
                + "r.rows, r.cols, r.encoding, r.created_at FROM release r JOIN job j ON j.id = r.job_id "
                + "WHERE r.id = ? AND j.state = 'DONE'", (rs, i) -> new StoredRelease(rs.getObject("id", UUID.class),
                rs.getObject("dataset_id", UUID.class), rs.getObject("job_id", UUID.class),
                ReleaseKind.valueOf(rs.getString("kind")), rs.getString("mechanism"), rs.getString("parameters"),
                rs.getString("loss"), FactsJson.read(json, ReleaseMeta.VOCABULARY, rs.getString("meta")),
                rs.getInt("rows"), rs.getInt("cols"), rs.getString("encoding"),
                rs.getTimestamp("created_at").toInstant()), id).stream().findFirst();
    }

    /** The payload: float[] for FLOAT32, double[] for FLOAT64. */
    Object payload(UUID id, String encoding) {
        byte[] bytes = jdbc.queryForObject("SELECT payload FROM release WHERE id = ?", byte[].class, id);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if ("FLOAT32".equals(encoding)) {
            float[] out = new float[bytes.length / 4];
            b.asFloatBuffer().get(out);
            return out;
        }
        double[] out = new double[bytes.length / 8];
        b.asDoubleBuffer().get(out);
        return out;
    }
}
