package io.privmat.query;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/** SQL of stored workloads. */
@Repository
class WorkloadRepository {

    private static final String COLUMNS = "id, creator, name, rows, cols, sha256, format, created_at";
    private static final RowMapper<Workload> MAPPER = (rs, i) -> new Workload(rs.getObject("id", UUID.class),
            rs.getString("creator"), rs.getString("name"), rs.getInt("rows"), rs.getInt("cols"), rs.getString("sha256"),
            rs.getString("format"), rs.getTimestamp("created_at").toInstant());

    private final JdbcTemplate jdbc;

    WorkloadRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void insert(Workload w, double[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(values);
        jdbc.update("INSERT INTO workload (id, creator, name, rows, cols, sha256, format, payload, created_at) "
                + "VALUES (?,?,?,?,?,?,?,?,?)", w.id(), w.creator(), w.name(), w.rows(), w.cols(), w.sha256(), w.format(),
                b.array(), Timestamp.from(w.createdAt()));
    }

    Optional<Workload> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM workload WHERE id = ?", MAPPER, id).stream().findFirst();
    }

    double[] values(UUID id) {
        byte[] bytes = jdbc.queryForObject("SELECT payload FROM workload WHERE id = ?", byte[].class, id);
        double[] out = new double[bytes.length / 8];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }

    List<Workload> listByCreator(String creator, int offset, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM workload WHERE creator = ? ORDER BY created_at, id OFFSET ? LIMIT ?",
                MAPPER, creator, offset, limit);
    }

    long countByCreator(String creator) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM workload WHERE creator = ?", Long.class, creator);
        return n == null ? 0 : n;
    }

    boolean delete(UUID id, String creator) {
        return jdbc.update("DELETE FROM workload WHERE id = ? AND creator = ?", id, creator) == 1;
    }
}
