package io.privmat.stream;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetCreated;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.ParsedEdges;
import io.privmat.dataset.ParsedMatrix;
import io.privmat.dataset.StreamSchema;
import io.privmat.json.ProblemProperties;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.window.InvalidStreamInputException;
import io.privmat.mechanism.window.StreamBlocks;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.metrics.ServiceMetrics;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import io.privmat.stream.jdbc.StreamRepository;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Appends to streams and closes their time blocks (docs/adr/0008-streams.md).
 *
 * <p>An append is one transaction: it locks the stream's row (appends to one stream are
 * serialised, on any replica), checks the batch whole, adds it to its block, and writes the blocks
 * and counters. Under ROW_COUNT it releases every block it fills through every active subscription
 * ({@link BlockReleaser}); under TIME it releases nothing: only {@link #closeDueBlocks} (the
 * scheduler) closes time blocks, on the clock. Rows are never stored. A refused batch changes
 * nothing.
 *
 * <p><b>Event times.</b> A batch may carry an event time (default: the service's clock when the
 * batch is applied, read under the stream's lock, or the stream's last event time if that is later).
 * It must not lie in the future of the service's clock (400), nor before the last accepted event
 * time of the stream or in a time block that has already closed (409 event-time-out-of-order): a
 * stream's event times never go back. Under TIME blocks the event time chooses the block: the open
 * block, or a later one kept pending until the scheduler has closed the blocks before it
 * ({@link StreamBlocks}); under ROW_COUNT it is only recorded.
 */
@Service
public class StreamService {

    private static final Logger log = LoggerFactory.getLogger(StreamService.class);

    /** Most blocks one transaction closes (a stream far behind its schedule catches up over several). */
    static final int MAX_BLOCKS_PER_TRANSACTION = 1000;

    private final StreamRepository repository;
    private final DatasetService datasets;
    private final BlockReleaser releaser;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final StreamSettings settings;
    private final ServiceMetrics metrics;
    private final Map<UUID, Map<String, Integer>> vertexIndexes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Map<String, Integer>> eldest) {
            return size() > 8;
        }
    };

    public StreamService(StreamRepository repository, DatasetService datasets, BlockReleaser releaser,
            TransactionTemplate tx, Clock clock, StreamSettings settings, ServiceMetrics metrics) {
        this.repository = repository;
        this.datasets = datasets;
        this.releaser = releaser;
        this.tx = tx;
        this.clock = clock;
        this.settings = settings;
        this.metrics = metrics;
    }

    /** A new STREAM dataset gets its state in the creating transaction: block 0 open and empty. */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    public void onDatasetCreated(DatasetCreated event) {
        if (event.dataset().schema() instanceof StreamSchema s) {
            Instant start = event.dataset().createdAt();
            repository.insertStream(event.dataset().id(), start, new double[StreamFacts.parameters(event.dataset())
                    .packedSize()], s.blockRule() == BlockRule.TIME ? start.plusSeconds(s.blockSeconds()) : null);
        }
    }

    /** One release an append or a block closing made. */
    public record ReleasedBlock(UUID subscriptionId, long block, long streamBlock, UUID releaseId) {}

    /**
     * What an append did (the owner's view: counts of the owner's rows).
     *
     * @param completedBlocks the stream's completed blocks after the append
     * @param openRows rows in the open block after it
     */
    public record Appended(long rows, long clippedRows, Instant eventTime, long completedBlocks, long openRows,
            List<ReleasedBlock> releases) {}

    /**
     * Appends a batch to an owned stream: rows as CSV, TSV, Matrix Market or .npy (a matrix stream) or
     * edge events {@code u,v[,w]} as CSV or TSV (an edge stream), all or nothing.
     */
    public Appended append(UUID datasetId, Caller caller, @Nullable String contentType, long contentLength,
            @Nullable Boolean header, @Nullable Instant eventTime, InputStream body) {
        Dataset dataset = datasets.owned(datasetId, caller);
        StreamSchema schema = StreamFacts.schema(dataset);
        // PostgreSQL keeps microseconds: compare and store event times at that resolution, or a time
        // read back after a restart (rounded) could appear to be after the next batch's.
        Instant given = eventTime == null ? null : eventTime.truncatedTo(ChronoUnit.MICROS);
        if (given != null && given.isAfter(now())) {
            throw PrivmatException.invalidParameter("eventTime", "not after the service's clock", "eventTime is in "
                    + "the future of the service's clock (" + now() + ")");
        }
        // Parsed before the stream is locked: a slow body does not hold up other writers.
        double[] rows = null;
        int count;
        ParsedEdges edges = null;
        if (schema.graph()) {
            edges = datasets.readEdges(contentType, contentLength, header, body, vertexIndex(datasetId),
                    (int) Math.min(Integer.MAX_VALUE, settings.maxAppendValues()));
            count = edges.count();
        } else {
            ParsedMatrix m = datasets.readMatrix(contentType, contentLength, header, body, settings.maxAppendValues());
            if (m.cols() != schema.d()) {
                throw new PrivmatException(ProblemType.INVALID_DATA, "The batch's rows have " + m.cols()
                        + " values; this stream's rows have " + schema.d() + ". Nothing was appended.",
                        Map.of("cols", m.cols(), "expectedCols", schema.d()));
            }
            rows = m.values();
            count = m.rows();
        }
        double[] matrixRows = rows;
        ParsedEdges edgeEvents = edges;
        return tx.execute(status -> {
            StreamState st = repository.lock(datasetId).orElseThrow(() -> notAStream(datasetId));
            // The default event time is read under the lock, so concurrent appends' default times are
            // in the order they apply; never before the last event time (replicas' clocks may differ).
            Instant clockNow = now();
            Instant event = given != null ? given
                    : st.lastEventAt() != null && st.lastEventAt().isAfter(clockNow) ? st.lastEventAt() : clockNow;
            WindowParameters p = StreamFacts.parameters(dataset);
            StreamBlocks blocks = StreamBlocks.resume(p, st.completedBlocks(), st.openRows(), st.openBlock(),
                    st.pending());
            if (st.lastEventAt() != null && event.isBefore(st.lastEventAt())) {
                throw outOfOrder(datasetId, "eventTime " + event + " is before the stream's last event time "
                        + st.lastEventAt() + "; a stream's event times never go back.");
            }
            if (blocks.exhausted()) {
                throw horizon(datasetId, p);
            }
            if (schema.blockRule() == BlockRule.TIME) {
                // Appends never close a TIME block: the rows join the block of their event time, and
                // only the scheduler closes blocks, on the clock (docs/adr/0008-streams.md).
                long target = blockAt(st.startedAt(), schema.blockSeconds(), event);
                if (target < blocks.completedBlocks()) {
                    throw outOfOrder(datasetId, "eventTime " + event + " falls in block " + target + ", which has "
                            + "already closed; the open block is " + blocks.completedBlocks() + ".");
                }
                if (target >= p.horizonBlocks()) {
                    throw horizon(datasetId, p);
                }
                if (!blocks.accepts(target)) {
                    throw behindSchedule(datasetId, st, schema);
                }
                StreamBlocks.Appended appended = appendTo(blocks, target, matrixRows, edgeEvents, count);
                save(dataset, schema, st, blocks, count, appended.clippedRows(), event, releaser.batch());
                return new Appended(count, appended.clippedRows(), event, blocks.completedBlocks(), unreleased(blocks),
                        List.of());
            }
            BlockReleaser.Batch batch = releaser.batch();
            List<Subscription> active = repository.active(datasetId);
            if (schema.blockRule() == BlockRule.ROW_COUNT) {
                long room = (p.horizonBlocks() - blocks.completedBlocks()) > Long.MAX_VALUE / p.blockRows()
                        ? Long.MAX_VALUE : (p.horizonBlocks() - blocks.completedBlocks()) * p.blockRows() - blocks.openRows();
                if (count > room) {
                    throw new PrivmatException(ProblemType.STREAM_HORIZON_REACHED, "Only " + room + " more rows fit "
                            + "before the stream's horizon of " + p.horizonBlocks() + " blocks; nothing was appended.",
                            Map.of("room", room, "horizonBlocks", p.horizonBlocks()));
                }
            }
            StreamBlocks.Appended appended = appendTo(blocks, -1, matrixRows, edgeEvents, count);
            for (StreamBlocks.Block b : appended.completed()) {
                releaser.release(batch, dataset, p, b, active);
            }
            save(dataset, schema, st, blocks, count, appended.clippedRows(), event, batch);
            return new Appended(count, appended.clippedRows(), event, blocks.completedBlocks(), unreleased(blocks),
                    batch.released.stream().map(r -> new ReleasedBlock(r.subscriptionId(), r.block(), r.streamBlock(),
                            r.releaseId())).toList());
        });
    }

    /** Adds the batch to TIME block {@code target}, or (ROW_COUNT, target −1) to the next row slots. */
    private static StreamBlocks.Appended appendTo(StreamBlocks blocks, long target, double @Nullable [] rows,
            @Nullable ParsedEdges edges, int count) {
        try {
            if (edges != null) {
                return target < 0 ? blocks.appendEdges(edges.u(), edges.v(), edges.w())
                        : blocks.appendEdgesAt(target, edges.u(), edges.v(), edges.w());
            }
            return target < 0 ? blocks.appendRows(rows, count) : blocks.appendRowsAt(target, rows, count);
        } catch (InvalidStreamInputException e) {
            ProblemProperties where = e.index() >= 0 ? ProblemProperties.of("item", e.index()) : ProblemProperties.none();
            throw new PrivmatException(ProblemType.INVALID_DATA, e.getMessage() + "; nothing was appended.", where);
        }
    }

    /** Rows appended and not yet in a completed block (the open block's, and a pending TIME block's). */
    private static long unreleased(StreamBlocks blocks) {
        StreamBlocks.Pending pending = blocks.pending();
        return blocks.openRows() + (pending == null ? 0 : pending.rows());
    }

    /**
     * 503: the batch's TIME block cannot be opened yet. The open block has ended but the scheduler
     * has not released it, and a later block already holds rows: the scheduler is more than a block
     * behind (or none runs). Nothing was appended.
     */
    private PrivmatException behindSchedule(UUID datasetId, StreamState st, StreamSchema schema) {
        Instant ended = st.startedAt().plusSeconds(Math.multiplyExact(st.completedBlocks() + 1, schema.blockSeconds()));
        return new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "Block " + st.completedBlocks() + " of this "
                + "stream ended at " + ended + " and the block scheduler has not released it yet, while a later block "
                + "already holds rows; a batch for a third block waits for it. Nothing was appended; retry shortly.",
                Map.of("datasetId", datasetId.toString(), "retryAfterSeconds",
                        Math.max(1L, (settings.tick().toMillis() + 999) / 1000)));
    }

    /**
     * Closes, on every TIME stream whose next block end has passed, the blocks that ended at or before
     * {@code now} (empty ones too: zeros plus noise), releasing each through the stream's active
     * subscriptions. Only this closes TIME blocks. Streams nobody holds go first; then it waits for
     * each stream an append or another replica holds, up to {@code privmat.streams.lock-timeout}
     * (past it, the next tick tries again). Returns the blocks closed.
     */
    public int closeDueBlocks(Instant now) {
        int closed = 0;
        List<UUID> held = new ArrayList<>();
        for (UUID id : tx.execute(s -> repository.due(now, 50))) {
            Integer n = closeDue(id, now, false);
            if (n == null) {
                held.add(id);
            } else {
                closed += n;
            }
        }
        for (UUID id : held) {
            Integer n = closeDue(id, now, true);
            closed += n == null ? 0 : n;
        }
        return closed;
    }

    /** Closes a stream's due blocks in one transaction: the blocks closed, or null when its lock was held. */
    private @Nullable Integer closeDue(UUID id, Instant now, boolean wait) {
        try {
            Closed c = tx.execute(status -> {
                StreamState st = (wait ? repository.lockWithin(id, settings.lockTimeout()) : repository.tryLock(id))
                        .orElse(null);
                return st == null ? null : closeDue(st, now);
            });
            if (c == null) {
                return wait ? 0 : null; // held (first pass), or deleted meanwhile
            }
            Instant committed = clock.instant();
            if (c.blocks() > 0 && committed.isAfter(c.firstPublishedAt())) {
                // Blocks first, first + 1, … are published s apart: those whose moment has passed.
                int late = (int) Math.min(c.blocks(),
                        Duration.between(c.firstPublishedAt(), committed).getSeconds() / c.blockSeconds() + 1);
                metrics.lateTimeReleases(late);
                log.warn("stream {}: {} TIME block(s) released after their publication time (the first by {} ms)", id,
                        late, Duration.between(c.firstPublishedAt(), committed).toMillis());
            }
            return c.blocks();
        } catch (RuntimeException e) {
            if (lockTimedOut(e)) {
                log.warn("stream {}: its lock was held longer than privmat.streams.lock-timeout; next tick", id);
            } else {
                log.error("closing due blocks of stream {} failed: {}", id, e.getClass().getSimpleName());
            }
            return 0;
        }
    }

    /** PostgreSQL's lock_timeout (SQLSTATE 55P03, lock_not_available) somewhere in the causes. */
    static boolean lockTimedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PessimisticLockingFailureException
                    || t instanceof java.sql.SQLException sql && "55P03".equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** The blocks one transaction closed, when the first of them is published, and the block length. */
    private record Closed(int blocks, Instant firstPublishedAt, long blockSeconds) {}

    private Closed closeDue(StreamState st, Instant now) {
        Dataset dataset = datasets.get(st.datasetId());
        StreamSchema schema = StreamFacts.schema(dataset);
        WindowParameters p = StreamFacts.parameters(dataset);
        StreamBlocks blocks = StreamBlocks.resume(p, st.completedBlocks(), st.openRows(), st.openBlock(), st.pending());
        Instant firstPublished = publishedAt(st.startedAt(), schema.blockSeconds(), st.completedBlocks(),
                settings.releaseDelay());
        // Block i ends at start + (i + 1)·s: every block below this index has ended.
        long ended = Math.min(blockAt(st.startedAt(), schema.blockSeconds(), now), p.horizonBlocks());
        BlockReleaser.Batch batch = releaser.batch();
        List<Subscription> active = repository.active(st.datasetId());
        int closed = 0;
        while (blocks.completedBlocks() < ended && closed < MAX_BLOCKS_PER_TRANSACTION) {
            releaser.release(batch, dataset, p, blocks.closeBlock(), active);
            closed++;
        }
        save(dataset, schema, st, blocks, 0, 0, st.lastEventAt(), batch);
        return new Closed(closed, firstPublished, schema.blockSeconds());
    }

    /**
     * When TIME block {@code block}'s releases are shown: start + (block + 1)·s + D, a function of
     * the declaration and the service's setting only (docs/mechanisms/windows.md, "Timing").
     */
    public static Instant publishedAt(Instant start, long blockSeconds, long block, Duration releaseDelay) {
        return start.plusSeconds(Math.multiplyExact(block + 1, blockSeconds)).plus(releaseDelay);
    }

    private void save(Dataset dataset, StreamSchema schema, StreamState st, StreamBlocks blocks, long rows, long clipped,
            @Nullable Instant event, BlockReleaser.Batch batch) {
        Instant nextClose = schema.blockRule() == BlockRule.TIME && !blocks.exhausted()
                ? st.startedAt().plusSeconds(Math.multiplyExact(blocks.completedBlocks() + 1, schema.blockSeconds()))
                : null;
        repository.updateStream(dataset.id(), blocks.completedBlocks(), blocks.openRows(), blocks.openBlock(),
                blocks.pending(), rows, clipped, event, nextClose);
        if (rows > 0 || clipped > 0) {
            datasets.recordAppend(dataset.id(), rows, clipped);
        }
        if (blocks.exhausted()) {
            for (Subscription s : repository.active(dataset.id())) {
                if (!batch.stopped.contains(s.id())) {
                    repository.setState(s.id(), SubscriptionState.FINISHED, null, null);
                    batch.stopped.add(s.id());
                }
            }
        }
    }

    /** The service's clock at the resolution PostgreSQL keeps (microseconds). */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** The index of the TIME block that contains {@code t}: ⌊(t − start)/s⌋ (negative before the start). */
    static long blockAt(Instant start, long blockSeconds, Instant t) {
        return Math.floorDiv(Duration.between(start, t).getSeconds(), blockSeconds);
    }

    private Map<String, Integer> vertexIndex(UUID datasetId) {
        synchronized (vertexIndexes) {
            Map<String, Integer> hit = vertexIndexes.get(datasetId);
            if (hit != null) {
                return hit;
            }
        }
        Map<String, Integer> loaded = datasets.vertexIndex(datasetId);
        synchronized (vertexIndexes) {
            vertexIndexes.put(datasetId, loaded);
        }
        return loaded;
    }

    /** Drops the memory copies of states and mechanisms (tests: as after a restart). */
    public void clearCaches() {
        releaser.clear();
    }

    static PrivmatException horizon(UUID datasetId, WindowParameters p) {
        return new PrivmatException(ProblemType.STREAM_HORIZON_REACHED, "The stream has reached its horizon of "
                + p.horizonBlocks() + " blocks; it takes no more rows.", Map.of("datasetId", datasetId.toString(),
                "horizonBlocks", p.horizonBlocks()));
    }

    private static PrivmatException outOfOrder(UUID datasetId, String detail) {
        return new PrivmatException(ProblemType.EVENT_TIME_OUT_OF_ORDER, detail + " Nothing was appended.",
                Map.of("datasetId", datasetId.toString()));
    }

    private static PrivmatException notAStream(UUID datasetId) {
        return new PrivmatException(ProblemType.WRONG_DATASET_KIND, "Dataset " + datasetId + " is not a STREAM.",
                Map.of());
    }
}
