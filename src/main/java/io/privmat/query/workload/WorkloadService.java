package io.privmat.query.workload;

import io.privmat.dataset.DatasetService;
import io.privmat.dataset.ParsedMatrix;
import io.privmat.json.ProblemProperties;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import java.io.InputStream;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Query workloads uploaded once and named by id (LINEAR_QUERIES with a CUSTOM workload). A workload
 * is public — it says which linear queries to answer, nothing about any dataset — and immutable; any
 * caller may use one by its id, its creator lists and deletes it.
 *
 * <p>Stored as what it is (issue 36): content is addressed by its SHA-256 and stored once, DENSE or
 * SPARSE, whichever is smaller, however many callers upload it; each caller holds one reference to
 * a content (uploading the same matrix again returns that reference). A caller's references count
 * their content's stored size in full towards its quota ({@link WorkloadSettings}), whoever else
 * shares it, so that the quota says nothing about other callers' uploads. Uploads are bounded like
 * dataset uploads: the declared shape of a sparse body by its size, the values by
 * {@link #MAX_ENTRIES}.
 */
@Service
public class WorkloadService {

    /** Most values (queries × cells) a workload may have. */
    public static final long MAX_ENTRIES = 1L << 22;

    private final WorkloadRepository repository;
    private final DatasetService datasets;
    private final WorkloadSettings settings;
    private final TransactionTemplate transactions;
    private final Clock clock;

    /** Most bytes (stored payloads and decoded values) of decoded contents kept per replica. */
    static final long DECODED_CACHE_BYTES = 256L << 20;

    /** A content decoded and checked against its address once, with the payload it was decoded from. */
    private record Decoded(int rows, int cols, String encoding, byte[] payload, double[] values) {
        long bytes() {
            return payload.length + (long) values.length * Double.BYTES;
        }

        boolean decodes(WorkloadContent c) {
            return rows == c.rows() && cols == c.cols() && encoding.equals(c.encoding())
                    && java.util.Arrays.equals(payload, c.payload());
        }
    }

    /** Decoded contents by SHA-256, least recently used dropped first (guarded by itself). */
    private final Map<String, Decoded> decoded = new LinkedHashMap<>(16, 0.75f, true);
    private long decodedBytes;

    WorkloadService(WorkloadRepository repository, DatasetService datasets, WorkloadSettings settings,
            TransactionTemplate transactions, Clock clock) {
        this.repository = repository;
        this.datasets = datasets;
        this.settings = settings;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** A stored workload, and whether this upload created the caller's reference (false: it had one). */
    public record Created(WorkloadRecord workload, boolean created) {}

    /** Reads, validates and stores an uploaded workload matrix (queries as rows, cells as columns). */
    public Created create(Caller caller, String name, @Nullable String contentType, long contentLength,
            @Nullable Boolean header, InputStream body) {
        ParsedMatrix m = datasets.readMatrix(contentType, contentLength, header, body, MAX_ENTRIES);
        for (double v : m.values()) {
            if (!Double.isFinite(v)) {
                throw new PrivmatException(ProblemType.INVALID_DATA, "NaN and infinite values are not allowed.", Map.of());
            }
        }
        WorkloadContent content = WorkloadContent.encode(m.rows(), m.cols(), m.values());
        String creator = caller.subject();
        long bytes = content.payload().length;
        return transactions.execute(status -> {
            repository.lockCreator(creator);
            Optional<WorkloadRecord> existing = repository.findByCreatorAndContent(creator, content.sha256());
            if (existing.isPresent()) {
                return new Created(existing.get(), false);
            }
            long count = repository.countByCreator(creator);
            long used = repository.bytesByCreator(creator);
            long quota = settings.maxBytesPerCaller().toBytes();
            if (count >= settings.maxPerCaller() || used + bytes > quota) {
                ProblemProperties p = ProblemProperties.of("workloads", count, "maxWorkloads", settings.maxPerCaller())
                        .with("storedBytes", used).with("requestedBytes", bytes).with("maxStoredBytes", quota);
                throw new PrivmatException(ProblemType.STORAGE_QUOTA_EXCEEDED, "This caller's workloads would exceed "
                        + "its quota: " + count + " of " + settings.maxPerCaller() + " workloads, " + used + " + "
                        + bytes + " of " + quota + " stored bytes (privmat.workloads.max-per-caller, "
                        + "max-bytes-per-caller); delete workloads it no longer needs.", p);
            }
            UUID id = UUID.randomUUID();
            repository.storeContent(content, clock.instant());
            repository.insert(id, creator, name, content, m.format(), bytes, clock.instant());
            return new Created(repository.find(id).orElseThrow(), true);
        });
    }

    /** Any workload by id (workloads are public). */
    public WorkloadRecord get(UUID id) {
        return repository.find(id).orElseThrow(() -> notFound(id));
    }

    /**
     * A workload's values, row-major, checked against its SHA-256 (once per replica for the same stored
     * bytes). The array is shared between reads: callers must not write it.
     *
     * @throws PrivmatException WORKLOAD_NOT_FOUND when there is no such workload or its stored content
     *     no longer matches its address
     */
    public double[] values(UUID id) {
        WorkloadContent content = repository.content(id).orElseThrow(() -> notFound(id));
        Decoded hit;
        synchronized (decoded) {
            hit = decoded.get(content.sha256());
        }
        if (hit != null && hit.decodes(content)) {
            return hit.values(); // the same stored bytes were decoded and checked before: not again
        }
        double[] values;
        try {
            values = content.values();
        } catch (IllegalStateException | ArithmeticException e) {
            throw notFound(id);
        }
        remember(content, values);
        return values;
    }

    /**
     * Keeps a checked decoding (issue 36 review, F5: a 16-byte SPARSE payload decodes to 32 MiB and a
     * SHA-256 over it, on every plan that names it). A later read of byte-identical stored content
     * reuses it; any other stored bytes are decoded and checked again.
     */
    private void remember(WorkloadContent content, double[] values) {
        Decoded d = new Decoded(content.rows(), content.cols(), content.encoding(), content.payload(), values);
        synchronized (decoded) {
            if (d.bytes() > DECODED_CACHE_BYTES) {
                return;
            }
            Decoded old = decoded.remove(content.sha256());
            if (old != null) {
                decodedBytes -= old.bytes();
            }
            var it = decoded.values().iterator();
            while (decodedBytes + d.bytes() > DECODED_CACHE_BYTES && it.hasNext()) {
                decodedBytes -= it.next().bytes();
                it.remove();
            }
            decoded.put(content.sha256(), d);
            decodedBytes += d.bytes();
        }
    }

    public List<WorkloadRecord> list(Caller caller, int offset, int limit) {
        return repository.listByCreator(caller.subject(), offset, limit);
    }

    public long count(Caller caller) {
        return repository.countByCreator(caller.subject());
    }

    /**
     * Deletes a workload its caller created (404 otherwise), and its content when no other reference
     * names it. Plans naming it then fail closed, refunded.
     */
    public void delete(UUID id, Caller caller) {
        String creator = caller.subject();
        transactions.executeWithoutResult(status -> {
            repository.lockCreator(creator);
            String sha = repository.delete(id, creator).orElseThrow(() -> notFound(id));
            repository.deleteIfUnreferenced(sha);
        });
    }

    private static PrivmatException notFound(UUID id) {
        return new PrivmatException(ProblemType.WORKLOAD_NOT_FOUND, "No workload " + id + ".", Map.of());
    }
}
