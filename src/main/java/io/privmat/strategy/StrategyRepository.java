package io.privmat.strategy;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** SQL of cached strategies (V020). Rows are inserted once and never updated. */
@Repository
class StrategyRepository {

    /** A stored strategy's metadata. */
    record Row(String id, String cacheKey, String mechanism, String infoJson, long bytes, Instant createdAt) {}

    private final JdbcTemplate jdbc;

    StrategyRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Inserts unless the id is present (another replica may have written the same bytes first). */
    void insertIfAbsent(String id, String cacheKey, String mechanism, String infoJson, byte[] codec, Instant now) {
        jdbc.update("INSERT INTO strategy (id, cache_key, mechanism, info, codec, created_at) VALUES (?,?,?,?::jsonb,?,?) "
                + "ON CONFLICT (id) DO NOTHING", id, cacheKey, mechanism, infoJson, codec, Timestamp.from(now));
    }

    Optional<Row> find(String id) {
        return jdbc.query("SELECT id, cache_key, mechanism, info::text AS info, octet_length(codec) AS bytes, created_at "
                + "FROM strategy WHERE id = ?", (rs, i) -> new Row(rs.getString("id"), rs.getString("cache_key"),
                rs.getString("mechanism"), rs.getString("info"), rs.getLong("bytes"),
                rs.getTimestamp("created_at").toInstant()), id).stream().findFirst();
    }

    Optional<byte[]> codec(String id) {
        return jdbc.query("SELECT codec FROM strategy WHERE id = ?", (rs, i) -> rs.getBytes(1), id).stream().findFirst();
    }
}
