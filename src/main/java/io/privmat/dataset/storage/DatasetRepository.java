package io.privmat.dataset.storage;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetStatus;
import io.privmat.dataset.EdgeChunk;
import io.privmat.dataset.MatrixChunk;
import io.privmat.dataset.Neighbouring;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Budget;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Repository;

/**
 * Access to {@code dataset}, {@code data_chunk} and {@code graph_vertex} (JDBC: COPY, bytea chunks
 * streamed with a cursor, row locks; docs/adr/0010-jdbc-and-jpa.md) and to {@code dataset_grant}
 * (JPA: {@link DatasetGrants}).
 */
@Repository
public class DatasetRepository {

    private static final String COLUMNS = "id, name, owner, kind, neighbouring, row_norm_bound, status, rows, cols, nnz, "
            + "clipped_rows, source_format, storage, upload_bytes, budget_epsilon, budget_delta, accounting, "
            + "approx_delta_fraction, created_at, uploaded_at, declaration, column_labels, dropped_ratings";

    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    private final JdbcTemplate jdbc;
    private final JdbcTemplate streaming;
    private final DataSource dataSource;
    private final @Nullable DatasetGrants grants;

    /** Chunk and metadata access only (tests of chunk reads); grant methods then fail. */
    public DatasetRepository(JdbcTemplate jdbc, DataSource dataSource) {
        this(jdbc, dataSource, null);
    }

    @org.springframework.beans.factory.annotation.Autowired
    public DatasetRepository(JdbcTemplate jdbc, DataSource dataSource, @Nullable DatasetGrants grants) {
        this.grants = grants;
        this.jdbc = jdbc;
        this.dataSource = dataSource;
        this.streaming = new JdbcTemplate(dataSource) {
            @Override
            protected void applyStatementSettings(java.sql.Statement statement) throws SQLException {
                super.applyStatementSettings(statement);
                binaryFromFirstExecution(statement);
            }
        };
        // One chunk (a few MiB) per round trip; needs a transaction (cursor-based fetch).
        this.streaming.setFetchSize(1);
    }

    /**
     * Chunk reads get binary results from their first execution on every connection. pgJDBC runs
     * the first four executions of a statement per connection unnamed (its prepareThreshold, 5),
     * and unnamed statements get text results: bytea then arrives as hex, twice the bytes plus a
     * decode — the first jobs after each start (and after each pool connection renewal) read
     * data about 3× slower (docs/benchmarks.md, "Cold start"). A negative threshold on the
     * statement makes pgJDBC prepare it on the server and ask for binary results at once; it is set
     * on each statement, so it holds for every connection, embedded or external database alike.
     */
    public static void binaryFromFirstExecution(java.sql.Statement statement) throws SQLException {
        if (statement.isWrapperFor(org.postgresql.PGStatement.class)) {
            statement.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1);
        }
    }

    private static final RowMapper<Dataset> MAPPER = (rs, i) -> new Dataset(
            rs.getObject("id", UUID.class),
            rs.getString("name"),
            rs.getString("owner"),
            DatasetKind.valueOf(rs.getString("kind")),
            Neighbouring.valueOf(rs.getString("neighbouring")),
            (Double) rs.getObject("row_norm_bound"),
            DatasetStatus.valueOf(rs.getString("status")),
            (Long) rs.getObject("rows"),
            (Long) rs.getObject("cols"),
            (Long) rs.getObject("nnz"),
            (Long) rs.getObject("clipped_rows"),
            rs.getString("source_format"),
            rs.getString("storage"),
            (Long) rs.getObject("upload_bytes"),
            new Budget(rs.getBigDecimal("budget_epsilon"), rs.getBigDecimal("budget_delta"),
                    AccountingMode.valueOf(rs.getString("accounting")), rs.getBigDecimal("approx_delta_fraction")),
            rs.getTimestamp("created_at").toInstant(),
            Optional.ofNullable(rs.getTimestamp("uploaded_at")).map(Timestamp::toInstant).orElse(null),
            schema(DatasetKind.valueOf(rs.getString("kind")), rs.getString("declaration")),
            labels(rs.getArray("column_labels")),
            (Long) rs.getObject("dropped_ratings"));

    private static @Nullable List<String> labels(java.sql.@Nullable Array array) throws SQLException {
        return array == null ? null : List.of((String[]) array.getArray());
    }

    /** Stores the column names of an uploaded header (MATRIX). */
    public void setColumnLabels(UUID id, List<String> labels) {
        jdbc.update(connection -> {
            java.sql.PreparedStatement ps = connection.prepareStatement(
                    "UPDATE dataset SET column_labels = ? WHERE id = ?");
            ps.setArray(1, connection.createArrayOf("text", labels.toArray()));
            ps.setObject(2, id);
            return ps;
        });
    }

    @SuppressWarnings("unchecked")
    private static io.privmat.dataset.@Nullable DatasetSchema schema(DatasetKind kind, @Nullable String document) {
        return document == null ? null
                : io.privmat.dataset.DatasetSchema.fromDocument(kind, JSON.readValue(document, Map.class));
    }

    public void insert(Dataset d) {
        jdbc.update("INSERT INTO dataset (id, name, owner, kind, neighbouring, row_norm_bound, status, budget_epsilon, "
                        + "budget_delta, accounting, approx_delta_fraction, created_at, declaration, rows, cols, nnz, "
                        + "clipped_rows) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?::jsonb,?,?,?,?)",
                d.id(), d.name(), d.owner(), d.kind().name(), d.neighbouring().name(), d.rowNormBound(), d.status().name(),
                d.budget().epsilon(), d.budget().delta(), d.budget().mode().name(), d.budget().approxDeltaFraction(),
                Timestamp.from(d.createdAt()), d.schema() == null ? null : JSON.writeValueAsString(d.schema().toDocument()),
                d.rows(), d.cols(), d.nnz(), d.clippedRows());
    }

    /** Adds appended and clipped rows to a stream's counts. */
    public void addRows(UUID id, long rows, long clipped) {
        jdbc.update("UPDATE dataset SET rows = rows + ?, clipped_rows = clipped_rows + ? WHERE id = ?", rows, clipped,
                id);
    }

    public Optional<Dataset> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM dataset WHERE id = ?", MAPPER, id).stream().findFirst();
    }

    /** Locks the dataset row for an upload; fails at once (SQLState 55P03) if another upload holds it. */
    public Optional<Dataset> lockForUpload(UUID id) {
        try {
            return jdbc.query("SELECT " + COLUMNS + " FROM dataset WHERE id = ? FOR UPDATE NOWAIT", MAPPER, id)
                    .stream().findFirst();
        } catch (DataAccessException e) {
            if (e.getMostSpecificCause() instanceof SQLException sql && "55P03".equals(sql.getSQLState())) {
                throw new PessimisticLockingFailureException("dataset row is locked by another upload", e);
            }
            throw e;
        }
    }

    public List<Dataset> listOwned(String owner, int offset, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM dataset WHERE owner = ? ORDER BY created_at, id OFFSET ? LIMIT ?",
                MAPPER, owner, offset, limit);
    }

    public long countOwned(String owner) {
        Long n = jdbc.queryForObject("SELECT count(*) FROM dataset WHERE owner = ?", Long.class, owner);
        return n == null ? 0 : n;
    }

    public List<Dataset> listGranted(String analyst, int offset, int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM dataset WHERE id IN (SELECT dataset_id FROM dataset_grant "
                + "WHERE analyst = ?) ORDER BY created_at, id OFFSET ? LIMIT ?", MAPPER, analyst, offset, limit);
    }

    public long countGranted(String analyst) {
        return grants().countByAnalyst(analyst);
    }

    public boolean isGranted(UUID id, String analyst) {
        return grants().existsByDatasetIdAndAnalyst(id, analyst);
    }

    /** Grants unless already granted (then the first grant's author and time stay); whether it was new. */
    public boolean grant(UUID id, String analyst, String grantedBy, Instant at) {
        return grants().insertIfAbsent(id, analyst, grantedBy, at.truncatedTo(java.time.temporal.ChronoUnit.MICROS)) > 0;
    }

    public boolean revokeGrant(UUID id, String analyst) {
        return grants().deleteGrant(id, analyst) > 0;
    }

    public List<io.privmat.dataset.Grant> grants(UUID id) {
        return grants().findByDatasetIdOrderByGrantedAtAscAnalystAsc(id).stream().map(DatasetGrantEntity::toGrant)
                .toList();
    }

    private DatasetGrants grants() {
        if (grants == null) {
            throw new IllegalStateException("this repository was built without grant access");
        }
        return grants;
    }

    /**
     * Locks the dataset row for deletion (waits for an upload in progress). While it is held, no
     * job or budget account can be inserted for it: their foreign keys need a share lock on the row.
     */
    public Optional<Dataset> lockForDelete(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM dataset WHERE id = ? FOR UPDATE", MAPPER, id).stream().findFirst();
    }

    /** Deletes the dataset (its chunks, grants, account, jobs and releases cascade) and keeps a tombstone. */
    public boolean delete(UUID id, String owner, Instant at) {
        jdbc.update("INSERT INTO deleted_dataset (id, owner, deleted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                id, owner, Timestamp.from(at));
        return jdbc.update("DELETE FROM dataset WHERE id = ?", id) > 0;
    }

    /** The owner's subject of a deleted dataset. */
    public Optional<String> deletedOwner(UUID id) {
        return jdbc.queryForList("SELECT owner FROM deleted_dataset WHERE id = ?", String.class, id).stream().findFirst();
    }

    public void markReady(UUID id, long rows, long cols, long nnz, long clipped, String format, String storage,
            long bytes, Instant at) {
        jdbc.update("UPDATE dataset SET status = 'READY', rows = ?, cols = ?, nnz = ?, clipped_rows = ?, "
                        + "source_format = ?, storage = ?, upload_bytes = ?, uploaded_at = ? WHERE id = ?",
                rows, cols, nnz, clipped, format, storage, bytes, Timestamp.from(at), id);
    }

    public void insertChunk(UUID id, int chunkNo, long firstIndex, int count, String encoding, long nnz, byte[] payload) {
        jdbc.update(INSERT_CHUNK, id, chunkNo, firstIndex, count, encoding, nnz, payload);
    }

    /**
     * Writes chunks on the calling thread's transaction connection from another thread (one thread at
     * a time): an upload parses on the request thread while a second thread writes the previous chunk.
     */
    public ChunkInserter chunkInserter() {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            return new ChunkInserter(connection, connection.prepareStatement(INSERT_CHUNK));
        } catch (SQLException e) {
            DataSourceUtils.releaseConnection(connection, dataSource);
            throw translate(e);
        }
    }

    private RuntimeException translate(SQLException e) {
        DataAccessException translated = jdbc.getExceptionTranslator().translate("chunk insert", INSERT_CHUNK, e);
        return translated != null ? translated : new IllegalStateException("chunk insert failed", e);
    }

    private static final String INSERT_CHUNK = "INSERT INTO data_chunk (dataset_id, chunk_no, first_index, item_count, "
            + "encoding, nnz, payload) VALUES (?,?,?,?,?,?,?)";

    /** One prepared chunk insert on a transaction's connection; {@link #close()} on the thread that opened it. */
    public final class ChunkInserter implements AutoCloseable {
        private final Connection connection;
        private final PreparedStatement insert;

        private ChunkInserter(Connection connection, PreparedStatement insert) {
            this.connection = connection;
            this.insert = insert;
        }

        /** Inserts a chunk whose payload is {@code payload}'s remaining bytes, sent as they are (no copy). */
        public void insert(UUID id, int chunkNo, long firstIndex, int count, String encoding, long nnz,
                java.nio.ByteBuffer payload) {
            try {
                insert.setObject(1, id);
                insert.setInt(2, chunkNo);
                insert.setLong(3, firstIndex);
                insert.setInt(4, count);
                insert.setString(5, encoding);
                insert.setLong(6, nnz);
                insert.setObject(7, new org.postgresql.util.ByteBufferByteStreamWriter(payload));
                insert.executeUpdate();
            } catch (SQLException e) {
                throw translate(e);
            }
        }

        @Override
        public void close() {
            try {
                insert.close();
            } catch (SQLException e) {
                throw translate(e);
            } finally {
                DataSourceUtils.releaseConnection(connection, dataSource);
            }
        }
    }

    /** Streams matrix chunks in order; call inside a transaction so that rows are fetched one at a time. */
    public void streamMatrixChunks(UUID id, int cols, Consumer<MatrixChunk> consumer) {
        streaming.query("SELECT first_index, item_count, encoding, nnz, payload FROM data_chunk "
                        + "WHERE dataset_id = ? ORDER BY chunk_no",
                (ResultSet rs) -> {
                    consumer.accept(ChunkCodec.decodeMatrix(rs.getLong(1), rs.getInt(2), cols, rs.getString(3),
                            rs.getLong(4), rs.getBytes(5)));
                }, id);
    }

    public void streamEdgeChunks(UUID id, Consumer<EdgeChunk> consumer) {
        streaming.query("SELECT first_index, item_count, payload FROM data_chunk WHERE dataset_id = ? ORDER BY chunk_no",
                (ResultSet rs) -> {
                    consumer.accept(ChunkCodec.decodeEdges(rs.getLong(1), rs.getInt(2), rs.getBytes(3)));
                }, id);
    }

    /** Ids of the given labels already known for this graph. */
    public Map<String, Integer> vertexIds(UUID id, String[] labels) {
        Map<String, Integer> found = new HashMap<>();
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT label, vertex_id FROM graph_vertex WHERE dataset_id = ? AND label = ANY (?)")) {
            Array array = connection.createArrayOf("text", labels);
            ps.setObject(1, id);
            ps.setArray(2, array);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(rs.getString(1), rs.getInt(2));
                }
            }
            array.free();
        } catch (SQLException e) {
            throw new IllegalStateException("vertex lookup failed", e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
        return found;
    }

    /** Every vertex label of a graph with its id. */
    public Map<String, Integer> allVertexIds(UUID id) {
        Map<String, Integer> out = new HashMap<>();
        jdbc.query("SELECT label, vertex_id FROM graph_vertex WHERE dataset_id = ?",
                (ResultSet rs) -> {
                    out.put(rs.getString(1), rs.getInt(2));
                }, id);
        return out;
    }

    /** Declares a graph's vertex universe: its labels get ids 0..N−1 in this order. */
    public void declareVertices(UUID id, List<String> labels) {
        jdbc.update("UPDATE dataset SET declared_vertices = ? WHERE id = ?", labels.size(), id);
        for (int from = 0; from < labels.size(); from += 50_000) {
            insertVertices(id, labels.subList(from, Math.min(labels.size(), from + 50_000)), from);
        }
    }

    /** The size of a graph's declared vertex universe, or null if it derives its vertices from its edges. */
    public @Nullable Integer declaredVertices(UUID id) {
        return jdbc.queryForObject("SELECT declared_vertices FROM dataset WHERE id = ?", Integer.class, id);
    }

    public void insertVertices(UUID id, List<String> labels, int firstId) {
        jdbc.batchUpdate("INSERT INTO graph_vertex (dataset_id, vertex_id, label) VALUES (?,?,?)",
                new org.springframework.jdbc.core.BatchPreparedStatementSetter() {
                    @Override
                    public void setValues(PreparedStatement ps, int i) throws SQLException {
                        ps.setObject(1, id);
                        ps.setInt(2, firstId + i);
                        ps.setString(3, labels.get(i));
                    }

                    @Override
                    public int getBatchSize() {
                        return labels.size();
                    }
                });
    }

    /** A RATINGS dataset's count of ratings dropped beyond the per-user cap (owner only). */
    public void setDroppedRatings(UUID id, long dropped) {
        jdbc.update("UPDATE dataset SET dropped_ratings = ? WHERE id = ?", dropped, id);
    }

    /** Stores user labels of a RATINGS dataset with ids {@code firstId}, {@code firstId + 1}, … (COPY). */
    public void insertRatingsUsers(UUID id, List<String> labels, int firstId) {
        StringBuilder rows = new StringBuilder(labels.size() * 48);
        for (int i = 0; i < labels.size(); i++) {
            rows.append(id).append('\t').append(firstId + i).append('\t');
            copyText(rows, labels.get(i));
            rows.append('\n');
        }
        copyIn("COPY ratings_user (dataset_id, user_id, label) FROM STDIN", new java.io.StringReader(rows.toString()));
    }

    /** Appends a value escaped for COPY's text format (backslash, tab, newline and carriage return). */
    private static void copyText(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
    }

    /** A RATINGS dataset's user labels in id order. */
    public List<String> ratingsUsers(UUID id) {
        return jdbc.queryForList("SELECT label FROM ratings_user WHERE dataset_id = ? ORDER BY user_id", String.class, id);
    }

    /** The id of a RATINGS dataset's user label, if uploaded. */
    public java.util.OptionalInt ratingsUserIndex(UUID id, String label) {
        List<Integer> ids = jdbc.queryForList("SELECT user_id FROM ratings_user WHERE dataset_id = ? AND label = ?",
                Integer.class, id, label);
        return ids.isEmpty() ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(ids.get(0));
    }

    /** Runs a statement on the transaction's connection. */
    public void execute(String sql) {
        jdbc.execute(sql);
    }

    /** COPY FROM STDIN on the transaction's connection (text format). */
    public void copyIn(String copySql, Reader data) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql, data);
        } catch (SQLException e) {
            throw new IllegalStateException("COPY failed", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /** Streams a query's rows on the transaction's connection with the given fetch size. */
    public void stream(String sql, int fetchSize, ResultSetConsumer consumer) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setFetchSize(fetchSize);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    consumer.accept(rs);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed", e);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    public <T> @Nullable T queryOne(String sql, RowMapper<T> mapper) {
        return jdbc.query(sql, mapper).stream().findFirst().orElse(null);
    }

    @FunctionalInterface
    public interface ResultSetConsumer {
        void accept(ResultSet rs) throws SQLException;
    }
}
