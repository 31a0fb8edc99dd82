package io.privmat.query;

import io.privmat.dataset.DatasetService;
import io.privmat.dataset.ParsedMatrix;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Query workloads uploaded once and named by id (LINEAR_QUERIES with a CUSTOM workload). A workload
 * is public — it says which linear queries to answer, nothing about any dataset — and immutable; any
 * caller may use one by its id, its creator lists and deletes it.
 */
@Service
public class WorkloadService {

    /** Most values (queries × cells) a workload may have. */
    public static final long MAX_ENTRIES = 1L << 22;

    private final WorkloadRepository repository;
    private final DatasetService datasets;
    private final Clock clock;

    WorkloadService(WorkloadRepository repository, DatasetService datasets, Clock clock) {
        this.repository = repository;
        this.datasets = datasets;
        this.clock = clock;
    }

    /** Reads, validates and stores an uploaded workload matrix (queries as rows, cells as columns). */
    public Workload create(Caller caller, String name, @Nullable String contentType, long contentLength,
            @Nullable Boolean header, InputStream body) {
        ParsedMatrix m = datasets.readMatrix(contentType, contentLength, header, body, MAX_ENTRIES);
        for (double v : m.values()) {
            if (!Double.isFinite(v)) {
                throw new PrivmatException(ProblemType.INVALID_DATA, "NaN and infinite values are not allowed.", Map.of());
            }
        }
        Workload w = new Workload(UUID.randomUUID(), caller.subject(), name, m.rows(), m.cols(),
                sha256(m.rows(), m.cols(), m.values()), m.format(), clock.instant());
        repository.insert(w, m.values());
        return w;
    }

    /** Any workload by id (workloads are public). */
    public Workload get(UUID id) {
        return repository.find(id).orElseThrow(() -> notFound(id));
    }

    /** A workload's values, row-major. */
    public double[] values(UUID id) {
        get(id);
        return repository.values(id);
    }

    public List<Workload> list(Caller caller, int offset, int limit) {
        return repository.listByCreator(caller.subject(), offset, limit);
    }

    public long count(Caller caller) {
        return repository.countByCreator(caller.subject());
    }

    /** Deletes a workload its caller created (404 otherwise). Plans naming it then fail closed, refunded. */
    public void delete(UUID id, Caller caller) {
        if (!repository.delete(id, caller.subject())) {
            throw notFound(id);
        }
    }

    static String sha256(int rows, int cols, double[] values) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            ByteBuffer head = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(rows).putInt(cols);
            digest.update(head.array());
            ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
            b.asDoubleBuffer().put(values);
            digest.update(b.array());
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PrivmatException notFound(UUID id) {
        return new PrivmatException(ProblemType.WORKLOAD_NOT_FOUND, "No workload " + id + ".", Map.of());
    }
}
