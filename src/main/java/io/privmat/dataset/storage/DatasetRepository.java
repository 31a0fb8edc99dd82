package io.privmat.dataset.storage;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetSchema;
import io.privmat.dataset.DatasetStatus;
import io.privmat.dataset.EdgeChunk;
import io.privmat.dataset.Grant;
import io.privmat.dataset.MatrixChunk;
import io.privmat.dataset.Neighbouring;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Budget;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Access to datasets. Their metadata ({@code dataset}, {@code deleted_dataset}) and grants
 * ({@code dataset_grant}) through JPA ({@link DatasetEntities}, {@link DeletedDatasets},
 * {@link DatasetGrants}); the row locks of uploads and deletions, a stream's row counts, and
 * {@code data_chunk}, {@code graph_vertex}, {@code ratings_user} through JDBC (COPY, bytea chunks
 * streamed with a cursor, batches): docs/adr/0010-jdbc-and-jpa.md.
 */
@Repository
public class DatasetRepository {

    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    private final JdbcTemplate jdbc;
    private final JdbcTemplate streaming;
    private final DataSource dataSource;
    private final @Nullable DatasetGrants grants;
    private final @Nullable DatasetEntities datasets;
    private final @Nullable DeletedDatasets deleted;

    @PersistenceContext
    @SuppressWarnings("NullAway.Init")
    private EntityManager entityManager;

    /** Chunk access only (tests of chunk reads); metadata and grant methods then fail. */
    public DatasetRepository(JdbcTemplate jdbc, DataSource dataSource) {
        this(jdbc, dataSource, null, null, null);
    }

    @org.springframework.beans.factory.annotation.Autowired
    public DatasetRepository(JdbcTemplate jdbc, DataSource dataSource, @Nullable DatasetGrants grants,
            @Nullable DatasetEntities datasets, @Nullable DeletedDatasets deleted) {
        this.grants = grants;
        this.datasets = datasets;
        this.deleted = deleted;
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

    /** Stores the column names of an uploaded header (MATRIX). */
    public void setColumnLabels(UUID id, List<String> labels) {
        datasets().setColumnLabels(id, labels.toArray(String[]::new));
    }

    /** A stored declaration read back (the schema record of the kind; its constructor validates it). */
    static io.privmat.dataset.@Nullable DatasetSchema schema(DatasetKind kind, @Nullable String document) {
        return document == null ? null : JSON.readValue(document, DatasetSchema.documentType(kind));
    }

    /** The declaration document stored with a dataset: the schema record's components in order. */
    static String document(DatasetSchema schema) {
        return JSON.writeValueAsString(schema);
    }

    /**
     * Inserts a dataset's row at once (flushed: the vertex labels, a stream's state and every other
     * row that refers to it are written with JDBC in the same transaction). Not kept in the
     * persistence context, like every dataset read here.
     */
    public void insert(Dataset d) {
        DatasetEntity entity = new DatasetEntity(d,
                d.schema() == null ? null : document(d.schema()));
        datasets().saveAndFlush(entity);
        detach(entity);
    }

    /**
     * Adds appended and clipped rows to a stream's counts: in SQL, in the append's transaction under
     * the stream's row lock (docs/adr/0008-streams.md), never read back there.
     */
    public void addRows(UUID id, long rows, long clipped) {
        jdbc.update("UPDATE dataset SET rows = rows + ?, clipped_rows = clipped_rows + ? WHERE id = ?", rows, clipped,
                id);
    }

    /**
     * A dataset's metadata by primary key: one JDBC statement mapped straight to {@link Dataset}. It
     * is read on every request about a dataset (each submission, quote, job status, upload), where
     * Hibernate's {@code EntityManager.find} (a session, the load events, the entity's hydration and
     * detachment) cost about five times the statement itself (docs/adr/0010-jdbc-and-jpa.md,
     * docs/benchmarks.md "Admissions"); {@code DatasetJpaMappingTest} checks that it reads what the
     * entity reads. Outside a transaction it runs on a connection in auto-commit; inside one it sees
     * the transaction's own JDBC and JPA writes (JPA writes here are flushed at once).
     */
    public Optional<Dataset> find(UUID id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM dataset WHERE id = ?", MAPPER, id).stream().findFirst();
    }

    private static final String COLUMNS = "id, name, owner, kind, neighbouring, row_norm_bound, status, rows, cols, nnz, "
            + "clipped_rows, source_format, storage, upload_bytes, budget_epsilon, budget_delta, accounting, "
            + "approx_delta_fraction, created_at, uploaded_at, declaration, column_labels, dropped_ratings";

    private static final RowMapper<Dataset> MAPPER = (rs, i) -> {
        DatasetKind kind = DatasetKind.valueOf(rs.getString("kind"));
        Array labels = rs.getArray("column_labels");
        java.sql.Timestamp uploaded = rs.getTimestamp("uploaded_at");
        return new Dataset(rs.getObject("id", UUID.class), rs.getString("name"), rs.getString("owner"), kind,
                Neighbouring.valueOf(rs.getString("neighbouring")),
                rs.getObject("row_norm_bound", Double.class), DatasetStatus.valueOf(rs.getString("status")),
                rs.getObject("rows", Long.class), rs.getObject("cols", Long.class), rs.getObject("nnz", Long.class),
                rs.getObject("clipped_rows", Long.class), rs.getString("source_format"), rs.getString("storage"),
                rs.getObject("upload_bytes", Long.class),
                new Budget(rs.getBigDecimal("budget_epsilon"), rs.getBigDecimal("budget_delta"),
                        AccountingMode.valueOf(rs.getString("accounting")),
                        rs.getBigDecimal("approx_delta_fraction")),
                rs.getTimestamp("created_at").toInstant(), uploaded == null ? null : uploaded.toInstant(),
                schema(kind, rs.getString("declaration")),
                labels == null ? null : List.of((String[]) labels.getArray()), rs.getObject("dropped_ratings", Long.class));
    };

    /**
     * Takes the entity out of the persistence context of the current transaction, if any: the
     * row is also changed with JDBC in the same transactions (an upload, a stream append), and a
     * managed entity would hide those changes from a later read.
     */
    private void detach(DatasetEntity entity) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            entityManager.detach(entity);
        }
    }

    private Dataset toDataset(DatasetEntity entity) {
        detach(entity);
        return entity.toDataset(schema(entity.kind(), entity.declaration()));
    }

    /**
     * Locks the dataset row for an upload and returns the row as locked; fails at once (SQLState
     * 55P03) if another upload holds it. The lock is SQL: {@code FOR UPDATE NOWAIT} is what gives
     * 409 at once. The row is read before the lock, so that the lock is the last statement while
     * the upload waits for its body (UploadLimitsTest and the fault tests find a waiting upload by
     * it in pg_stat_activity). Once created, the row of a dataset that takes an upload changes
     * only by an upload, under this lock, which sets the status with everything else (a stream's
     * counts change with its appends, and a stream takes no upload): when the locked status is the
     * one read, the read is the locked row; otherwise the row is read again.
     */
    public Optional<Dataset> lockForUpload(UUID id) {
        Optional<Dataset> read = find(id);
        List<String> locked;
        try {
            locked = jdbc.queryForList("SELECT status FROM dataset WHERE id = ? FOR UPDATE NOWAIT", String.class, id);
        } catch (DataAccessException e) {
            if (e.getMostSpecificCause() instanceof SQLException sql && "55P03".equals(sql.getSQLState())) {
                throw new PessimisticLockingFailureException("dataset row is locked by another upload", e);
            }
            throw e;
        }
        if (locked.isEmpty()) {
            return Optional.empty();
        }
        return read.filter(d -> d.status().name().equals(locked.get(0))).or(() -> find(id));
    }

    public List<Dataset> listOwned(String owner, int offset, int limit) {
        return page("select d from DatasetEntity d where d.owner = :subject order by d.createdAt, d.id", owner, offset,
                limit);
    }

    public long countOwned(String owner) {
        return datasets().countByOwner(owner);
    }

    public List<Dataset> listGranted(String analyst, int offset, int limit) {
        return page("select d from DatasetEntity d where d.id in (select g.datasetId from DatasetGrantEntity g "
                + "where g.analyst = :subject) order by d.createdAt, d.id", analyst, offset, limit);
    }

    private List<Dataset> page(String jpql, String subject, int offset, int limit) {
        return entityManager.createQuery(jpql, DatasetEntity.class).setParameter("subject", subject)
                .setFirstResult(offset).setMaxResults(limit).getResultList().stream().map(this::toDataset).toList();
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

    public List<Grant> grants(UUID id) {
        return grants().findByDatasetIdOrderByGrantedAtAscAnalystAsc(id).stream().map(DatasetGrantEntity::toGrant)
                .toList();
    }

    private DatasetGrants grants() {
        return present(grants);
    }

    private DatasetEntities datasets() {
        return present(datasets);
    }

    private DeletedDatasets deleted() {
        return present(deleted);
    }

    private static <T> T present(@Nullable T repository) {
        if (repository == null) {
            throw new IllegalStateException("this repository was built for chunk access only");
        }
        return repository;
    }

    /**
     * Locks the dataset row for deletion (waits for an upload in progress). While it is held, no
     * job or budget account can be inserted for it: their foreign keys need a share lock on the row.
     */
    public Optional<Dataset> lockForDelete(UUID id) {
        return jdbc.queryForList("SELECT id FROM dataset WHERE id = ? FOR UPDATE", UUID.class, id).isEmpty()
                ? Optional.empty() : find(id);
    }

    /**
     * Deletes the dataset (its chunks, grants, account, jobs and releases cascade in the database)
     * and keeps a tombstone, in the caller's transaction.
     */
    public boolean delete(UUID id, String owner, Instant at) {
        deleted().insertIfAbsent(id, owner, at.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        return datasets().deleteDataset(id) > 0;
    }

    /** The owner's subject of a deleted dataset. */
    public Optional<String> deletedOwner(UUID id) {
        return deleted().findById(id).map(DeletedDatasetEntity::owner);
    }

    public void markReady(UUID id, long rows, long cols, long nnz, long clipped, String format, String storage,
            long bytes, Instant at) {
        datasets().markUploaded(id, DatasetStatus.READY, rows, cols, nnz, clipped, format, storage, bytes,
                at.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
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
        datasets().setDroppedRatings(id, dropped);
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

    /** The label of a RATINGS dataset's user with this dense id, if uploaded. */
    public java.util.Optional<String> ratingsUserLabel(UUID id, int userId) {
        return jdbc.queryForList("SELECT label FROM ratings_user WHERE dataset_id = ? AND user_id = ?", String.class,
                id, userId).stream().findFirst();
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
