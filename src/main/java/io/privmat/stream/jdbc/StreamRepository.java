package io.privmat.stream.jdbc;

import io.privmat.api.FactsJson;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.window.StreamBlocks;
import io.privmat.stream.StreamState;
import io.privmat.stream.Subscription;
import io.privmat.stream.SubscriptionRelease;
import io.privmat.stream.SubscriptionState;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/** SQL of streams, subscriptions, their slots and releases. Every method runs in the caller's transaction. */
@Repository
public class StreamRepository {

    private final JdbcTemplate jdbc;
    private final JsonMapper json;

    public StreamRepository(JdbcTemplate jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** Little-endian float64, as every stored matrix. */
    public static byte[] bytes(double[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(values);
        return b.array();
    }

    public static double[] doubles(byte[] bytes) {
        double[] out = new double[bytes.length / 8];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        return out;
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static final RowMapper<StreamState> STREAM = (rs, i) -> new StreamState(rs.getObject("dataset_id", UUID.class),
            rs.getTimestamp("started_at").toInstant(), rs.getLong("completed_blocks"), rs.getLong("open_rows"),
            doubles(rs.getBytes("open_block")), pending(rs), rs.getLong("appended_rows"), rs.getLong("clipped_rows"),
            instant(rs, "last_event_at"));

    private static StreamBlocks.@Nullable Pending pending(ResultSet rs) throws SQLException {
        long index = rs.getLong("pending_index");
        return rs.wasNull() ? null : new StreamBlocks.Pending(index, rs.getLong("pending_rows"),
                doubles(rs.getBytes("pending_block")));
    }

    private static final String SUBSCRIPTION_COLUMNS = "id, dataset_id, job_id, caller, kind, mechanism, spec, loss, "
            + "state, first_block, completed_blocks, created_at, cancelled_at, error_code, charged_period, paused_period, "
            + "paused_limit, run_block";

    private static final RowMapper<Subscription> SUBSCRIPTION = (rs, i) -> new Subscription(
            rs.getObject("id", UUID.class), rs.getObject("dataset_id", UUID.class), rs.getObject("job_id", UUID.class),
            rs.getString("caller"), rs.getString("kind"), rs.getString("mechanism"), rs.getString("spec"),
            rs.getString("loss"), SubscriptionState.valueOf(rs.getString("state")), rs.getLong("first_block"),
            rs.getLong("completed_blocks"), rs.getTimestamp("created_at").toInstant(), instant(rs, "cancelled_at"),
            rs.getString("error_code"), rs.getObject("charged_period", Long.class),
            rs.getObject("paused_period", Long.class), rs.getString("paused_limit"), rs.getObject("run_block", Long.class));

    /** A new stream: nothing appended, an empty open block; {@code nextCloseAt} the end of block 0 under TIME. */
    public void insertStream(UUID datasetId, Instant startedAt, double[] emptyBlock, @Nullable Instant nextCloseAt) {
        jdbc.update("INSERT INTO stream (dataset_id, started_at, open_block, next_close_at) VALUES (?,?,?,?)", datasetId,
                Timestamp.from(startedAt), bytes(emptyBlock), nextCloseAt == null ? null : Timestamp.from(nextCloseAt));
    }

    /** Locks the stream's row (waits for another writer) and reads it. */
    public Optional<StreamState> lock(UUID datasetId) {
        return jdbc.query("SELECT * FROM stream WHERE dataset_id = ? FOR UPDATE", STREAM, datasetId).stream().findFirst();
    }

    /** Locks the stream's row unless another transaction holds it (the scheduler's first pass). */
    public Optional<StreamState> tryLock(UUID datasetId) {
        return jdbc.query("SELECT * FROM stream WHERE dataset_id = ? FOR UPDATE SKIP LOCKED", STREAM, datasetId).stream()
                .findFirst();
    }

    /**
     * Locks the stream's row, waiting at most {@code timeout} for another holder (an append, another
     * replica's scheduler): PostgreSQL's lock_timeout for this transaction, so past it the statement
     * fails (SQLSTATE 55P03) and the transaction must roll back.
     */
    public Optional<StreamState> lockWithin(UUID datasetId, java.time.Duration timeout) {
        jdbc.execute("SET LOCAL lock_timeout = '" + Math.max(1, timeout.toMillis()) + "ms'");
        return lock(datasetId);
    }

    /** The counters only (no open block): public and owner facts. */
    public Optional<long[]> counters(UUID datasetId) {
        return jdbc.query("SELECT completed_blocks, open_rows, appended_rows, clipped_rows FROM stream "
                + "WHERE dataset_id = ?", (rs, i) -> new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3),
                rs.getLong(4)}, datasetId).stream().findFirst();
    }

    /** Streams whose next TIME block end is due, oldest first. */
    public List<UUID> due(Instant now, int limit) {
        return jdbc.queryForList("SELECT dataset_id FROM stream WHERE next_close_at <= ? ORDER BY next_close_at LIMIT ?",
                UUID.class, Timestamp.from(now), limit);
    }

    public void updateStream(UUID datasetId, long completedBlocks, long openRows, double[] openBlock,
            StreamBlocks.@Nullable Pending pending, long addedRows, long addedClipped, @Nullable Instant lastEventAt,
            @Nullable Instant nextCloseAt) {
        jdbc.update("UPDATE stream SET completed_blocks = ?, open_rows = ?, open_block = ?, pending_index = ?, "
                        + "pending_rows = ?, pending_block = ?, appended_rows = appended_rows + ?, "
                        + "clipped_rows = clipped_rows + ?, last_event_at = ?, next_close_at = ? WHERE dataset_id = ?",
                completedBlocks, openRows, bytes(openBlock), pending == null ? null : pending.index(),
                pending == null ? 0 : pending.rows(), pending == null ? null : bytes(pending.packedGram()), addedRows,
                addedClipped, lastEventAt == null ? null : Timestamp.from(lastEventAt),
                nextCloseAt == null ? null : Timestamp.from(nextCloseAt), datasetId);
    }

    public void insertSubscription(Subscription s, byte[] streamKey) {
        jdbc.update("INSERT INTO subscription (id, dataset_id, job_id, caller, kind, mechanism, spec, loss, stream_key, "
                        + "state, first_block, completed_blocks, created_at, charged_period) "
                        + "VALUES (?,?,?,?,?,?,?::jsonb,?::jsonb,?,?,?,?,?,?)",
                s.id(), s.datasetId(), s.jobId(), s.caller(), s.kind(), s.mechanism(), s.spec(), s.loss(), streamKey,
                s.state().name(), s.firstBlock(), s.completedBlocks(), Timestamp.from(s.createdAt()), s.chargedPeriod());
    }

    public Optional<Subscription> find(UUID id) {
        return jdbc.query("SELECT " + SUBSCRIPTION_COLUMNS + " FROM subscription WHERE id = ?", SUBSCRIPTION, id).stream()
                .findFirst();
    }

    public Optional<Subscription> findByJob(UUID jobId) {
        return jdbc.query("SELECT " + SUBSCRIPTION_COLUMNS + " FROM subscription WHERE job_id = ?", SUBSCRIPTION, jobId)
                .stream().findFirst();
    }

    /** The active subscriptions of a stream, in a fixed order (lock the stream row first). */
    public List<Subscription> active(UUID datasetId) {
        return jdbc.query("SELECT " + SUBSCRIPTION_COLUMNS + " FROM subscription WHERE dataset_id = ? AND state = 'ACTIVE' "
                + "ORDER BY created_at, id", SUBSCRIPTION, datasetId);
    }

    /** A dataset's subscriptions, oldest first; only {@code caller}'s when not null. */
    public List<Subscription> list(UUID datasetId, @Nullable String caller, int offset, int limit) {
        return caller == null
                ? jdbc.query("SELECT " + SUBSCRIPTION_COLUMNS + " FROM subscription WHERE dataset_id = ? "
                        + "ORDER BY created_at, id OFFSET ? LIMIT ?", SUBSCRIPTION, datasetId, offset, limit)
                : jdbc.query("SELECT " + SUBSCRIPTION_COLUMNS + " FROM subscription WHERE dataset_id = ? AND caller = ? "
                        + "ORDER BY created_at, id OFFSET ? LIMIT ?", SUBSCRIPTION, datasetId, caller, offset, limit);
    }

    public long count(UUID datasetId, @Nullable String caller) {
        Long n = caller == null
                ? jdbc.queryForObject("SELECT count(*) FROM subscription WHERE dataset_id = ?", Long.class, datasetId)
                : jdbc.queryForObject("SELECT count(*) FROM subscription WHERE dataset_id = ? AND caller = ?", Long.class,
                        datasetId, caller);
        return n == null ? 0 : n;
    }

    /** The secret stream key of a subscription: for computing its releases only, never shown or logged. */
    public byte[] streamKey(UUID id) {
        return jdbc.queryForObject("SELECT stream_key FROM subscription WHERE id = ?", byte[].class, id);
    }

    public void setState(UUID id, SubscriptionState state, @Nullable Instant at, @Nullable String errorCode) {
        jdbc.update("UPDATE subscription SET state = ?, cancelled_at = coalesce(?, cancelled_at), "
                + "error_code = coalesce(?, error_code) WHERE id = ?", state.name(),
                at == null ? null : Timestamp.from(at), errorCode, id);
    }

    public void setCompletedBlocks(UUID id, long completedBlocks) {
        jdbc.update("UPDATE subscription SET completed_blocks = ? WHERE id = ?", completedBlocks, id);
    }

    /**
     * Writes a subscription's period fields (docs/accounting.md, "Budgets that renew per period"):
     * the latest period charged, the period it is paused in and the limit that refused it.
     */
    public void setPeriods(UUID id, long completedBlocks, @Nullable Long chargedPeriod, @Nullable Long pausedPeriod,
            @Nullable String pausedLimit) {
        jdbc.update("UPDATE subscription SET completed_blocks = ?, charged_period = ?, paused_period = ?, "
                + "paused_limit = ? WHERE id = ?", completedBlocks, chargedPeriod, pausedPeriod, pausedLimit, id);
    }

    /**
     * Restarts a paused subscription like a new one with stream block {@code runBlock}: a fresh
     * secret stream key and no slots (its mechanism's state starts empty).
     */
    public void restart(UUID id, byte[] streamKey, long runBlock) {
        jdbc.update("DELETE FROM subscription_slot WHERE subscription_id = ?", id);
        jdbc.update("UPDATE subscription SET stream_key = ?, run_block = ? WHERE id = ?", streamKey, runBlock, id);
    }

    /** Every slot of a subscription: [secret, published], by key. */
    @SuppressWarnings("unchecked")
    public SortedMap<Long, double[]>[] slots(UUID id) {
        SortedMap<Long, double[]> secret = new TreeMap<>();
        SortedMap<Long, double[]> published = new TreeMap<>();
        jdbc.query("SELECT secret, slot, payload FROM subscription_slot WHERE subscription_id = ?", (ResultSet rs) -> {
            (rs.getBoolean(1) ? secret : published).put(rs.getLong(2), doubles(rs.getBytes(3)));
        }, id);
        return new SortedMap[] {secret, published};
    }

    public void insertSlot(UUID id, boolean secret, long slot, double[] payload) {
        jdbc.update("INSERT INTO subscription_slot (subscription_id, secret, slot, payload) VALUES (?,?,?,?)", id, secret,
                slot, bytes(payload));
    }

    public void deleteSlot(UUID id, boolean secret, long slot) {
        jdbc.update("DELETE FROM subscription_slot WHERE subscription_id = ? AND secret = ? AND slot = ?", id, secret,
                slot);
    }

    /** Bytes of a subscription's stored slots (for the owner and benchmarks). */
    public long slotBytes(UUID id) {
        Long n = jdbc.queryForObject("SELECT coalesce(sum(octet_length(payload)), 0) FROM subscription_slot "
                + "WHERE subscription_id = ?", Long.class, id);
        return n == null ? 0 : n;
    }

    /** Links a stored release to its subscription and block; a second release of one block fails (primary key). */
    public void insertRelease(UUID subscriptionId, long block, long streamBlock, UUID releaseId, @Nullable String answer) {
        jdbc.update("INSERT INTO subscription_release (subscription_id, block, stream_block, release_id, answer) "
                + "VALUES (?,?,?,?,?::jsonb)", subscriptionId, block, streamBlock, releaseId, answer);
    }

    private final RowMapper<SubscriptionRelease> release = (rs, i) -> new SubscriptionRelease(
            rs.getObject("subscription_id", UUID.class), rs.getLong("block"), rs.getLong("stream_block"),
            rs.getObject("release_id", UUID.class), rs.getString("answer"), meta(rs.getString("meta")),
            rs.getTimestamp("created_at").toInstant());

    private Facts meta(String document) {
        return FactsJson.read(json, ReleaseMeta.VOCABULARY, document);
    }

    /** A subscription's releases of blocks below {@code shownBlocks}, newest first. */
    public List<SubscriptionRelease> releases(UUID subscriptionId, long shownBlocks, int offset, int limit) {
        return jdbc.query("SELECT s.subscription_id, s.block, s.stream_block, s.release_id, s.answer, r.meta, r.created_at "
                + "FROM subscription_release s JOIN release r ON r.id = s.release_id WHERE s.subscription_id = ? "
                + "AND s.block < ? ORDER BY s.block DESC OFFSET ? LIMIT ?", release, subscriptionId, shownBlocks, offset,
                limit);
    }

    public Optional<SubscriptionRelease> release(UUID subscriptionId, long block) {
        return jdbc.query("SELECT s.subscription_id, s.block, s.stream_block, s.release_id, s.answer, r.meta, r.created_at "
                + "FROM subscription_release s JOIN release r ON r.id = s.release_id WHERE s.subscription_id = ? "
                + "AND s.block = ?", release, subscriptionId, block).stream().findFirst();
    }

    /** How many of a subscription's releases are of blocks below {@code shownBlocks}. */
    public long releaseCount(UUID subscriptionId, long shownBlocks) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM subscription_release WHERE subscription_id = ? AND block < ?",
                Long.class, subscriptionId, shownBlocks);
        return n == null ? 0 : n;
    }

    /** A stored release's estimate (float64 payload). */
    public double[] releasePayload(UUID releaseId) {
        return doubles(jdbc.queryForObject("SELECT payload FROM release WHERE id = ?", byte[].class, releaseId));
    }
}
