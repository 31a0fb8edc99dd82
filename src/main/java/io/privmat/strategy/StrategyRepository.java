package io.privmat.strategy;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * SQL of cached strategies (V020, V030). Rows are inserted once; only the time of last use changes,
 * and the pruning job deletes unused ones.
 */
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
        jdbc.update("INSERT INTO strategy (id, cache_key, mechanism, info, codec, created_at, last_used_at) "
                + "VALUES (?,?,?,?::jsonb,?,?,?) ON CONFLICT (id) DO NOTHING", id, cacheKey, mechanism, infoJson, codec,
                Timestamp.from(now), Timestamp.from(now));
    }

    Optional<Row> find(String id) {
        return jdbc.query("SELECT id, cache_key, mechanism, info::text AS info, octet_length(codec) AS bytes, created_at "
                + "FROM strategy WHERE id = ?", (rs, i) -> new Row(rs.getString("id"), rs.getString("cache_key"),
                rs.getString("mechanism"), rs.getString("info"), rs.getLong("bytes"),
                rs.getTimestamp("created_at").toInstant()), id).stream().findFirst();
    }

    /** Records a use (the pruning job keeps what is used). */
    void touch(String id, Instant now) {
        jdbc.update("UPDATE strategy SET last_used_at = ? WHERE id = ? AND last_used_at < ?", Timestamp.from(now), id,
                Timestamp.from(now));
    }

    /** Deletes strategies unused since {@code before} that no stored estimate release names. */
    List<String> deleteUnusedSince(Instant before) {
        return jdbc.queryForList("DELETE FROM strategy s WHERE s.last_used_at < ? AND NOT EXISTS (SELECT 1 FROM "
                + "release r WHERE r.meta->>'strategyKey' = s.id) RETURNING s.id",
                String.class, Timestamp.from(before));
    }

    /**
     * Deletes, least recently used first, the strategies that no release names beyond the first
     * {@code keepBytes} bytes of them (most recently used first).
     */
    List<String> deleteBeyond(long keepBytes) {
        return jdbc.queryForList("DELETE FROM strategy WHERE id IN (SELECT id FROM (SELECT s.id, sum(octet_length("
                + "s.codec)) OVER (ORDER BY s.last_used_at DESC, s.id) AS kept FROM strategy s WHERE NOT EXISTS "
                + "(SELECT 1 FROM release r WHERE r.meta->>'strategyKey' = s.id)) t "
                + "WHERE t.kept > ?) RETURNING id", String.class, keepBytes);
    }

    Optional<byte[]> codec(String id) {
        return jdbc.query("SELECT codec FROM strategy WHERE id = ?", (rs, i) -> rs.getBytes(1), id).stream().findFirst();
    }
}
