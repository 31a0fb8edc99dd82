package io.privmat.strategy;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * SQL of cached strategies (V020, V030). Rows are inserted once; only the time of last use changes,
 * and the pruning job deletes unused ones (a release being stored inserts its strategy again if it
 * was deleted meanwhile: {@link StrategyService#keep}).
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

    /**
     * Records a use and locks the row until the caller's transaction ends (so that a pruning pass
     * waits for it); false when the row is not there.
     */
    boolean lockAndTouch(String id, Instant now) {
        return jdbc.update("UPDATE strategy SET last_used_at = GREATEST(last_used_at, ?) WHERE id = ?",
                Timestamp.from(now), id) > 0;
    }

    /**
     * Inserts, or records a use of the row another replica inserted meanwhile; either way the row is
     * locked until the caller's transaction ends.
     */
    void insertLocked(String id, String cacheKey, String mechanism, String infoJson, byte[] codec, Instant now) {
        jdbc.update("INSERT INTO strategy (id, cache_key, mechanism, info, codec, created_at, last_used_at) "
                + "VALUES (?,?,?,?::jsonb,?,?,?) ON CONFLICT (id) DO UPDATE SET last_used_at = "
                + "GREATEST(strategy.last_used_at, excluded.last_used_at)", id, cacheKey, mechanism, infoJson, codec,
                Timestamp.from(now), Timestamp.from(now));
    }

    /** Candidates: strategies unused since {@code before} that no stored estimate release names. */
    List<String> unusedSince(Instant before) {
        return jdbc.queryForList("SELECT s.id FROM strategy s WHERE s.last_used_at < ? AND NOT EXISTS (SELECT 1 FROM "
                + "release r WHERE r.meta->>'strategyKey' = s.id)", String.class, Timestamp.from(before));
    }

    /**
     * Candidates: least recently used first, the strategies that no release names beyond the first
     * {@code keepBytes} bytes of them (most recently used first).
     */
    List<String> beyond(long keepBytes) {
        return jdbc.queryForList("SELECT id FROM (SELECT s.id, sum(octet_length(s.codec)) OVER (ORDER BY "
                + "s.last_used_at DESC, s.id) AS kept FROM strategy s WHERE NOT EXISTS (SELECT 1 FROM release r "
                + "WHERE r.meta->>'strategyKey' = s.id)) t WHERE t.kept > ?", String.class, keepBytes);
    }

    /**
     * Deletes candidates, in the caller's transaction: first locks their rows (waiting for a release
     * being stored that holds one, see {@link #lockAndTouch}), then, in a statement whose snapshot
     * is taken after the locks (READ COMMITTED), deletes those that are still not named by a
     * release and, when {@code unusedBefore} is given, still unused since then.
     */
    List<String> deleteLocked(List<String> candidates, @Nullable Instant unusedBefore) {
        if (candidates.isEmpty()) {
            return List.of();
        }
        String[] ids = candidates.toArray(String[]::new);
        jdbc.queryForList("SELECT id FROM strategy WHERE id = ANY(?) ORDER BY id FOR UPDATE", String.class,
                (Object) ids);
        String delete = "DELETE FROM strategy s WHERE s.id = ANY(?) AND NOT EXISTS (SELECT 1 FROM release r WHERE "
                + "r.meta->>'strategyKey' = s.id)";
        return unusedBefore == null ? jdbc.queryForList(delete + " RETURNING s.id", String.class, (Object) ids)
                : jdbc.queryForList(delete + " AND s.last_used_at < ? RETURNING s.id", String.class, (Object) ids,
                        Timestamp.from(unusedBefore));
    }

    Optional<byte[]> codec(String id) {
        return jdbc.query("SELECT codec FROM strategy WHERE id = ?", (rs, i) -> rs.getBytes(1), id).stream().findFirst();
    }
}
