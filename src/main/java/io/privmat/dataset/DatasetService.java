package io.privmat.dataset;

import io.privmat.dataset.ingest.Ingester;
import io.privmat.dataset.ingest.UploadFormat;
import io.privmat.dataset.ingest.UploadGate;
import io.privmat.dataset.ingest.UploadStats;
import io.privmat.dataset.storage.DatasetRepository;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.metrics.ServiceMetrics;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** Creates, lists, deletes and fills datasets; streams their data to mechanisms. */
@Service
public class DatasetService implements DatasetRows {

    private static final Logger log = LoggerFactory.getLogger(DatasetService.class);

    private final DatasetRepository repository;
    private final Ingester ingester;
    private final UploadGate gate;
    private final TransactionTemplate transactions;
    private final TransactionTemplate readOnly;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final ExternalSettings external;
    private final ObjectProvider<ExternalEngine> engines;
    private ServiceMetrics metrics = ServiceMetrics.NONE;

    @org.springframework.beans.factory.annotation.Autowired(required = false)
    void setMetrics(ServiceMetrics metrics) {
        this.metrics = metrics;
    }

    public DatasetService(DatasetRepository repository, Ingester ingester, UploadGate gate,
            TransactionTemplate transactions, Clock clock, ApplicationEventPublisher events, ExternalSettings external,
            ObjectProvider<ExternalEngine> engines) {
        this.events = events;
        this.external = external;
        this.engines = engines;
        this.gate = gate;
        this.repository = repository;
        this.ingester = ingester;
        this.transactions = transactions;
        this.readOnly = new TransactionTemplate(transactions.getTransactionManager());
        this.readOnly.setReadOnly(true);
        this.clock = clock;
    }

    public Dataset create(NewDataset request) {
        // A stream is ready for appends and subscriptions from its creation: d is declared, no row yet.
        Long streamCols = request.schema() instanceof StreamSchema s ? (long) s.d() : null;
        Long none = streamCols == null ? null : 0L;
        // PostgreSQL keeps microseconds and ROUNDS the rest: truncate here so that the stored creation time
        // (a stream's start) is never after an event time taken from the same clock and truncated.
        Instant createdAt = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        Dataset dataset = request.schema() instanceof ExternalSchema e ? external(request, e, createdAt)
                : new Dataset(UUID.randomUUID(), request.name(), request.owner(), request.kind(), request.neighbouring(),
                request.rowNormBound(), streamCols == null ? DatasetStatus.EMPTY : DatasetStatus.READY, none, streamCols,
                none, none, null, null, null, request.budget(), createdAt, null, request.schema(), null, null);
        List<String> vertices = request.vertexLabels();
        // The declared universe is written with the dataset: ids 0..N−1 in declared order, fixed
        // before any edge is seen (docs/adr/0006-privacy-hardening.md). Listeners of DatasetCreated
        // (a stream's state) write in the same transaction.
        transactions.executeWithoutResult(status -> {
            repository.insert(dataset);
            if (vertices != null) {
                repository.declareVertices(dataset.id(), vertices);
            }
            events.publishEvent(new DatasetCreated(dataset));
        });
        return dataset;
    }

    /**
     * An EXTERNAL dataset, ready from its declaration: d declared, n only where declared (REPLACE_ONE),
     * nothing counted from the data. The location must start with a configured prefix
     * ({@code privmat.external.allowed-locations}); when this replica has an engine, the declared
     * columns are checked against the source's schema (no row is read).
     */
    private Dataset external(NewDataset request, ExternalSchema schema, Instant createdAt) {
        List<String> allowed = external.allowedLocations() == null ? List.of() : external.allowedLocations();
        if (!external.allows(schema.location())) {
            throw PrivmatException.invalidParameter("external.location", allowed.isEmpty() ? "none configured"
                    : String.join(" | ", allowed), allowed.isEmpty()
                    ? "this service accepts no EXTERNAL location (privmat.external.allowed-locations is empty)"
                    : "external.location must lie in one of the allowed directories: " + String.join(", ", allowed));
        }
        ExternalEngine engine = engines.getIfAvailable();
        if (engine != null) {
            try {
                engine.check(schema);
            } catch (IllegalArgumentException e) {
                throw PrivmatException.invalidParameter("external", "a readable source with the declared numeric "
                        + "columns", "the declared source does not match: " + e.getMessage());
            }
        }
        return new Dataset(UUID.randomUUID(), request.name(), request.owner(), request.kind(), request.neighbouring(),
                request.rowNormBound(), DatasetStatus.READY, schema.declaredRows(),
                schema.ratings() != null ? (long) schema.ratings().items() : (long) schema.d(), null, null,
                schema.format().name(), null, null, request.budget(), createdAt, null, schema, null, null);
    }

    /**
     * Counts a stream's appended rows and the rows clipped to B (the owner sees both), in the
     * caller's transaction (the append's).
     */
    public void recordAppend(UUID id, long rows, long clippedRows) {
        repository.addRows(id, rows, clippedRows);
        metrics.appended(rows);
    }

    /** Any dataset, without an access check: for internal use (job handlers), never for callers. */
    public Dataset get(UUID id) {
        return repository.find(id).orElseThrow(() -> new DatasetNotFoundException(id));
    }

    /**
     * A dataset the caller may see: its owner, or an analyst it is granted to. Anything else is
     * 404, exactly as for a dataset that does not exist, so that existence does not leak.
     */
    public Dataset visible(UUID id, Caller caller) {
        Dataset dataset = repository.find(id).orElseThrow(() -> new DatasetNotFoundException(id));
        boolean owner = caller.is(Role.OWNER) && dataset.owner().equals(caller.subject());
        boolean granted = caller.is(Role.ANALYST) && repository.isGranted(id, caller.subject());
        if (!owner && !granted) {
            throw new DatasetNotFoundException(id);
        }
        return dataset;
    }

    /** A dataset the caller owns (404 otherwise). */
    public Dataset owned(UUID id, Caller caller) {
        Dataset dataset = repository.find(id).orElseThrow(() -> new DatasetNotFoundException(id));
        if (!caller.is(Role.OWNER) || !dataset.owner().equals(caller.subject())) {
            throw new DatasetNotFoundException(id);
        }
        return dataset;
    }

    public List<Dataset> list(Caller caller, int offset, int limit) {
        return caller.is(Role.OWNER) ? repository.listOwned(caller.subject(), offset, limit)
                : caller.is(Role.ANALYST) ? repository.listGranted(caller.subject(), offset, limit) : List.of();
    }

    public long count(Caller caller) {
        return caller.is(Role.OWNER) ? repository.countOwned(caller.subject())
                : caller.is(Role.ANALYST) ? repository.countGranted(caller.subject()) : 0;
    }

    /**
     * Deletes an owned dataset in one transaction: locks its row, lets listeners settle its jobs
     * ({@link DatasetDeleting}: unfinished jobs are cancelled, refunded if they never read data),
     * keeps a tombstone naming the owner (so that the ledger stays readable) and deletes it.
     */
    public void delete(UUID id, Caller caller) {
        owned(id, caller);
        transactions.executeWithoutResult(status -> {
            Dataset dataset = repository.lockForDelete(id).orElseThrow(() -> new DatasetNotFoundException(id));
            events.publishEvent(new DatasetDeleting(id));
            if (!repository.delete(id, dataset.owner(), clock.instant())) {
                throw new DatasetNotFoundException(id);
            }
        });
    }

    /**
     * Whether the caller may read the dataset's ledger: its owner (also after deletion), a granted
     * analyst (own entries only, see the ledger endpoint), or an ADMIN (any). Otherwise 404.
     */
    public void requireLedgerReadable(UUID id, Caller caller) {
        if (caller.is(Role.ADMIN)) {
            return;
        }
        Optional<Dataset> live = repository.find(id);
        if (live.isPresent()) {
            visible(id, caller);
            return;
        }
        boolean formerOwner = caller.is(Role.OWNER)
                && repository.deletedOwner(id).map(caller.subject()::equals).orElse(false);
        if (!formerOwner) {
            throw new DatasetNotFoundException(id);
        }
    }

    public Grant grant(UUID id, String analyst, Caller caller) {
        owned(id, caller);
        repository.grant(id, analyst, caller.subject(), clock.instant());
        return repository.grants(id).stream().filter(g -> g.analyst().equals(analyst)).findFirst().orElseThrow();
    }

    public void revokeGrant(UUID id, String analyst, Caller caller) {
        owned(id, caller);
        if (!repository.revokeGrant(id, analyst)) {
            throw new PrivmatException(ProblemType.NOT_FOUND, "No grant for that analyst on this dataset.", Map.of());
        }
    }

    public List<Grant> grants(UUID id, Caller caller) {
        owned(id, caller);
        return repository.grants(id);
    }

    /**
     * Stores the dataset's data from one upload, all or nothing. Answers 409 if data is already
     * there or another upload of the same dataset is running, 415 for a media type the kind does
     * not accept, 413 beyond the size limit, 408 for a body that arrives too slowly, 503 when this
     * replica already receives its maximum of uploads, and 422 with a position for malformed
     * content. The first part of the body is received before a database connection is taken, and
     * everything is written in one transaction (docs/reliability.md).
     */
    public Dataset upload(UUID id, Caller caller, @Nullable String contentType, long contentLength,
            @Nullable Boolean header, InputStream body) {
        Dataset owned = owned(id, caller);
        if (owned.kind() == DatasetKind.STREAM) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "A STREAM dataset takes batches of rows with "
                    + "POST /v1/datasets/" + id + "/rows, not one upload.", Map.of("datasetId", id.toString()));
        }
        if (owned.kind() == DatasetKind.EXTERNAL) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "An EXTERNAL dataset's rows stay at its declared "
                    + "location; it takes no upload.", Map.of("datasetId", id.toString()));
        }
        ingester.checkDeclaredLength(contentLength);
        requireNoData(owned);
        UploadFormat format = UploadFormat.resolve(contentType, owned.kind());
        long began = System.nanoTime();
        try (UploadGate.Permit permit = gate.enter()) {
            Ingester.Received received = ingester.receive(body);
            Dataset stored = transactions.execute(status -> {
                Dataset dataset = repository.lockForUpload(id).orElseThrow(() -> new DatasetNotFoundException(id));
                requireNoData(dataset);
                UploadStats stats = ingester.ingest(dataset, format, header, received);
                repository.markReady(id, stats.rows(), stats.cols(), stats.nnz(), stats.clippedRows(), stats.format(),
                        stats.storage(), stats.bytes(), clock.instant());
                if (stats.columnLabels() != null && dataset.kind() == DatasetKind.MATRIX) {
                    repository.setColumnLabels(id, stats.columnLabels());
                }
                // Shape only: never values.
                log.info("dataset {} uploaded: {} x {}, {} bytes as {}", id, stats.rows(), stats.cols(),
                        stats.bytes(), stats.format());
                return repository.find(id).orElseThrow();
            });
            metrics.ingested(stored.kind().name(), stored.uploadBytes() == null ? 0 : stored.uploadBytes(),
                    stored.rows() == null ? 0 : stored.rows(),
                    java.time.Duration.ofNanos(System.nanoTime() - began));
            return stored;
        } catch (java.io.UncheckedIOException e) {
            throw new PrivmatException(ProblemType.MALFORMED_REQUEST,
                    "The upload ended before its body was complete; nothing was stored.", Map.of());
        } catch (PessimisticLockingFailureException e) {
            throw new PrivmatException(ProblemType.UPLOAD_IN_PROGRESS,
                    "Another upload to this dataset is in progress.", Map.of("datasetId", id.toString()));
        }
    }

    /**
     * Reads a small public matrix (a query workload, …) from an upload in the formats a MATRIX dataset
     * accepts, into memory, at most {@code maxEntries} values; nothing is stored. The same limits as a
     * dataset upload (size, rate, time, concurrent uploads: docs/reliability.md); 415 for another media
     * type, 422 with a position for malformed content.
     */
    public ParsedMatrix readMatrix(@Nullable String contentType, long contentLength, @Nullable Boolean header,
            InputStream body, long maxEntries) {
        ingester.checkDeclaredLength(contentLength);
        UploadFormat format = UploadFormat.resolve(contentType, DatasetKind.MATRIX);
        try (UploadGate.Permit permit = gate.enter()) {
            Ingester.Received received = ingester.receive(body);
            if (format != UploadFormat.MATRIX_MARKET) {
                return ingester.readMatrix(format, header, received, maxEntries); // no database needed
            }
            // Coordinate entries are sorted in a temporary table, which needs a transaction.
            return transactions.execute(status -> ingester.readMatrix(format, header, received, maxEntries));
        } catch (java.io.UncheckedIOException e) {
            throw new PrivmatException(ProblemType.MALFORMED_REQUEST,
                    "The upload ended before its body was complete.", Map.of());
        }
    }

    private static void requireNoData(Dataset dataset) {
        if (dataset.status() == DatasetStatus.READY) {
            throw new PrivmatException(ProblemType.DATA_ALREADY_UPLOADED,
                    "This dataset already has data; create a new dataset to upload other data.",
                    Map.of("datasetId", dataset.id().toString()));
        }
    }

    /**
     * Reads a batch of weighted edge events {@code u,v[,w]} (CSV or TSV; w defaults to 1 and must lie
     * in [0, 1]; no self-loops; repeated pairs are separate events) into memory, labels resolved
     * against {@code vertexIds}, at most {@code maxEdges}; nothing is stored. 415 for another media
     * type, 413 beyond the upload limit, 422 with a position for malformed content or an unknown label.
     */
    public ParsedEdges readEdges(@Nullable String contentType, long contentLength, @Nullable Boolean header,
            InputStream body, Map<String, Integer> vertexIds, int maxEdges) {
        ingester.checkDeclaredLength(contentLength);
        UploadFormat format = UploadFormat.resolve(contentType, DatasetKind.GRAPH);
        try (UploadGate.Permit permit = gate.enter()) {
            return ingester.readEdges(format, header, ingester.receive(body), vertexIds, maxEdges);
        } catch (java.io.UncheckedIOException e) {
            throw new PrivmatException(ProblemType.MALFORMED_REQUEST,
                    "The upload ended before its body was complete.", Map.of());
        }
    }

    /** Every vertex label of a graph with its dense id (the vertex set is public). */
    public Map<String, Integer> vertexIndex(UUID id) {
        return readOnly.execute(s -> repository.allVertexIds(id));
    }

    @Override
    public void forEachMatrixChunk(UUID datasetId, Consumer<MatrixChunk> consumer) {
        Dataset dataset = requireReady(datasetId, DatasetKind.MATRIX);
        readOnly.executeWithoutResult(s -> repository.streamMatrixChunks(datasetId,
                Math.toIntExact(dataset.cols()), consumer));
    }

    @Override
    public void forEachEdgeChunk(UUID datasetId, Consumer<EdgeChunk> consumer) {
        requireReady(datasetId, DatasetKind.GRAPH);
        readOnly.executeWithoutResult(s -> repository.streamEdgeChunks(datasetId, consumer));
    }

    @Override
    public double[] histogramCounts(UUID datasetId) {
        Dataset dataset = requireReady(datasetId, DatasetKind.HISTOGRAM);
        int cells = Math.toIntExact(dataset.cols());
        double[] counts = new double[cells];
        readOnly.executeWithoutResult(s -> repository.streamMatrixChunks(datasetId, cells, chunk -> {
            // One stored row holds all the cells.
            chunk.forEachEntry((row, col, value) -> counts[col] = value);
        }));
        return counts;
    }

    @Override
    public RatingsSource ratings(UUID datasetId) {
        Dataset dataset = requireReady(datasetId, DatasetKind.RATINGS);
        int n = Math.toIntExact(dataset.cols());
        int cap = ((RatingsSchema) dataset.schema()).perUserCap();
        return new RatingsSource() {
            @Override
            public int items() {
                return n;
            }

            @Override
            public void forEachUser(UserVisitor visitor) {
                // One streaming pass: a chunk (a few MiB) at a time, each user's record copied into
                // buffers of s entries that are reused (RatingsSource allows it).
                int[] items = new int[cap];
                double[] ratings = new double[cap];
                readOnly.executeWithoutResult(s -> repository.streamMatrixChunks(datasetId, n, chunk -> {
                    int[] pointers = chunk.rowPointers();
                    for (int r = 0; r < chunk.rowCount(); r++) {
                        int from = pointers[r];
                        int count = pointers[r + 1] - from;
                        System.arraycopy(chunk.columnIndices(), from, items, 0, count);
                        System.arraycopy(chunk.values(), from, ratings, 0, count);
                        visitor.visit(Math.toIntExact(chunk.firstRow() + r), items, ratings, count);
                    }
                }));
            }
        };
    }

    @Override
    public List<String> ratingsUsers(UUID datasetId) {
        requireReady(datasetId, DatasetKind.RATINGS);
        return readOnly.execute(s -> repository.ratingsUsers(datasetId));
    }

    @Override
    public java.util.OptionalInt ratingsUserIndex(UUID datasetId, String userLabel) {
        requireReady(datasetId, DatasetKind.RATINGS);
        return readOnly.execute(s -> repository.ratingsUserIndex(datasetId, userLabel));
    }

    @Override
    public java.util.Optional<String> ratingsUserLabel(UUID datasetId, int userIndex) {
        requireReady(datasetId, DatasetKind.RATINGS);
        return readOnly.execute(s -> repository.ratingsUserLabel(datasetId, userIndex));
    }

    private Dataset requireReady(UUID id, DatasetKind kind) {
        Dataset dataset = get(id);
        if (dataset.kind() != kind) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND,
                    "Dataset " + id + " is a " + dataset.kind() + ", not a " + kind + ".", Map.of());
        }
        if (dataset.status() != DatasetStatus.READY || dataset.cols() == null) {
            throw new PrivmatException(ProblemType.INVALID_DATA, "Dataset " + id + " has no data yet.", Map.of());
        }
        return dataset;
    }
}
