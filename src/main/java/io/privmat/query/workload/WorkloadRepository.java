package io.privmat.query.workload;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/**
 * SQL of stored workloads (V018, V029): content stored once by its SHA-256 in
 * {@code workload_content}, and one reference per caller in {@code workload}. A reference and the
 * content it names are written, and deleted, under the content row's lock.
 */
@Repository
class WorkloadRepository {

    private static final String COLUMNS = "w.id, w.creator, w.name, w.rows, w.cols, w.sha256, w.format, c.encoding, "
            + "c.nnz, w.bytes, w.created_at";
    private static final String FROM = " FROM workload w JOIN workload_content c ON c.sha256 = w.sha256";
    private static final RowMapper<WorkloadRecord> MAPPER = (rs, i) -> new WorkloadRecord(rs.getObject("id", UUID.class),
            rs.getString("creator"), rs.getString("name"), rs.getInt("rows"), rs.getInt("cols"), rs.getString("sha256"),
            rs.getString("format"), rs.getString("encoding"), rs.getLong("nnz"), rs.getLong("bytes"),
            rs.getTimestamp("created_at").toInstant());

    private final JdbcTemplate jdbc;

    WorkloadRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Serialises one creator's uploads and deletions until the transaction ends (quota checks). */
    void lockCreator(String creator) {
        jdbc.query("SELECT pg_advisory_xact_lock(hashtextextended(?, 36))", rs -> null, "workload:" + creator);
    }

    /**
     * Inserts the content unless it is stored, and locks its row either way (ON CONFLICT DO UPDATE
     * takes the row lock), so that a concurrent deletion of its last reference cannot remove it.
     */
    void storeContent(WorkloadContent content, Instant now) {
        jdbc.update("INSERT INTO workload_content (sha256, rows, cols, encoding, nnz, payload, created_at) "
                + "VALUES (?,?,?,?,?,?,?) ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256",
                content.sha256(), content.rows(), content.cols(), content.encoding(), content.nonZeros(),
                content.payload(), Timestamp.from(now));
    }

    void insert(UUID id, String creator, String name, WorkloadContent content, String format, long bytes,
            Instant now) {
        jdbc.update("INSERT INTO workload (id, creator, name, rows, cols, sha256, format, bytes, created_at) "
                + "VALUES (?,?,?,?,?,?,?,?,?)", id, creator, name, content.rows(), content.cols(), content.sha256(),
                format, bytes, Timestamp.from(now));
    }

    Optional<WorkloadRecord> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + FROM + " WHERE w.id = ?", MAPPER, id).stream().findFirst();
    }

    /** The caller's reference to this content, if it has one. */
    Optional<WorkloadRecord> findByCreatorAndContent(String creator, String sha256) {
        return jdbc.query("SELECT " + COLUMNS + FROM + " WHERE w.creator = ? AND w.sha256 = ? ORDER BY w.created_at "
                + "LIMIT 1", MAPPER, creator, sha256).stream().findFirst();
    }

    /** The stored content a reference names. */
    Optional<WorkloadContent> content(UUID id) {
        return jdbc.query("SELECT c.sha256, c.rows, c.cols, c.encoding, c.nnz, c.payload" + FROM + " WHERE w.id = ?",
                (rs, i) -> new WorkloadContent(rs.getString("sha256"), rs.getInt("rows"), rs.getInt("cols"),
                        rs.getString("encoding"), rs.getLong("nnz"), rs.getBytes("payload")), id).stream().findFirst();
    }

    List<WorkloadRecord> listByCreator(String creator, int offset, int limit) {
        return jdbc.query("SELECT " + COLUMNS + FROM + " WHERE w.creator = ? ORDER BY w.created_at, w.id OFFSET ? "
                + "LIMIT ?", MAPPER, creator, offset, limit);
    }

    long countByCreator(String creator) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM workload WHERE creator = ?", Long.class, creator);
        return n == null ? 0 : n;
    }

    long bytesByCreator(String creator) {
        Long n = jdbc.queryForObject("SELECT coalesce(sum(bytes), 0) FROM workload WHERE creator = ?", Long.class,
                creator);
        return n == null ? 0 : n;
    }

    /** Deletes the caller's reference; the content it named, or empty when there was no such reference. */
    Optional<String> delete(UUID id, String creator) {
        return jdbc.query("DELETE FROM workload WHERE id = ? AND creator = ? RETURNING sha256",
                (rs, i) -> rs.getString(1), id, creator).stream().findFirst();
    }

    /** Deletes content no reference names any more (under its row lock: an upload of it waits or wins). */
    void deleteIfUnreferenced(String sha256) {
        jdbc.query("SELECT 1 FROM workload_content WHERE sha256 = ? FOR UPDATE", rs -> null, sha256);
        jdbc.update("DELETE FROM workload_content c WHERE c.sha256 = ? AND NOT EXISTS "
                + "(SELECT 1 FROM workload w WHERE w.sha256 = c.sha256)", sha256);
    }
}
