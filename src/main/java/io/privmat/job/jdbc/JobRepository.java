package io.privmat.job.jdbc;

import io.privmat.job.Job;
import io.privmat.job.JobFilter;
import io.privmat.job.JobOutput;
import io.privmat.job.JobResult;
import io.privmat.job.JobState;
import io.privmat.job.NewJob;
import io.privmat.privacy.Tracks;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/** SQL of the job engine. Methods run in the caller's transaction. */
@Repository
public class JobRepository {

    private final JdbcTemplate jdbc;

    public JobRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    private static @Nullable Instant instant(ResultSet rs, String column) throws java.sql.SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static final RowMapper<Job> JOB = (rs, i) -> new Job(
            rs.getObject("id", UUID.class), rs.getObject("dataset_id", UUID.class), rs.getString("dataset_owner"),
            rs.getString("kind"),
            rs.getString("mechanism"), rs.getString("parameters"), rs.getString("request_hash"),
            rs.getString("idempotency_key"), rs.getString("caller"), JobState.valueOf(rs.getString("state")),
            rs.getDouble("progress"), rs.getString("loss"),
            new Tracks(rs.getBigDecimal("cost_rho"), rs.getBigDecimal("cost_epsilon"), rs.getBigDecimal("cost_delta")),
            rs.getInt("attempts"), rs.getString("lease_owner"), instant(rs, "heartbeat_at"),
            instant(rs, "data_access_started_at"), instant(rs, "created_at"), instant(rs, "started_at"),
            instant(rs, "finished_at"), rs.getString("error_code"), rs.getString("error_message"));

    public void insert(NewJob j, Instant now) {
        insertAll(List.of(j), List.of(now));
    }

    /**
     * Inserts QUEUED jobs with one statement and returns their rows as stored (as {@link #find}
     * would read them), in the order given. Each records its dataset's data version as this
     * statement reads it (docs/accounting.md, "Repeat answers"): no later than the data the job
     * will read, since the version only grows.
     */
    public List<Job> insertAll(List<NewJob> newJobs, List<Instant> createdAt) {
        StringBuilder sql = new StringBuilder("INSERT INTO job (id, dataset_id, dataset_owner, kind, mechanism, "
                + "parameters, request_hash, idempotency_key, caller, state, loss, cost_rho, cost_epsilon, cost_delta, "
                + "created_at, data_version) VALUES ");
        List<Object> args = new java.util.ArrayList<>(newJobs.size() * 15);
        for (int i = 0; i < newJobs.size(); i++) {
            NewJob j = newJobs.get(i);
            sql.append(i == 0 ? "" : ",").append("(?,?,?,?,?,?::jsonb,?,?,?,'QUEUED',?::jsonb,?,?,?,?,"
                    + "(SELECT data_version FROM dataset WHERE id = ?))");
            java.util.Collections.addAll(args, j.id(), j.datasetId(), j.datasetOwner(), j.kind(), j.mechanism(),
                    j.parametersJson(), j.requestHash(), j.idempotencyKey(), j.caller(), j.lossJson(), j.cost().rho(),
                    j.cost().epsilon(), j.cost().delta(), Timestamp.from(createdAt.get(i)), j.datasetId());
        }
        sql.append(" RETURNING *");
        java.util.Map<UUID, Job> stored = new java.util.HashMap<>();
        for (Job job : jdbc.query(sql.toString(), JOB, args.toArray())) {
            stored.put(job.id(), job);
        }
        return newJobs.stream().map(j -> stored.get(j.id())).toList();
    }

    /**
     * Inserts a job that is DONE at once, its data access started now: a standing subscription,
     * charged at creation, whose releases follow the stream (they are not the worker's).
     */
    public void insertDone(NewJob j, Instant now) {
        Timestamp at = Timestamp.from(now);
        jdbc.update("INSERT INTO job (id, dataset_id, dataset_owner, kind, mechanism, parameters, request_hash, "
                        + "idempotency_key, caller, state, progress, loss, cost_rho, cost_epsilon, cost_delta, "
                        + "data_access_started_at, created_at, started_at, finished_at) "
                        + "VALUES (?,?,?,?,?,?::jsonb,?,?,?,'DONE',1,?::jsonb,?,?,?,?,?,?,?)",
                j.id(), j.datasetId(), j.datasetOwner(), j.kind(), j.mechanism(), j.parametersJson(), j.requestHash(),
                j.idempotencyKey(), j.caller(), j.lossJson(), j.cost().rho(), j.cost().epsilon(), j.cost().delta(), at,
                at, at, at);
    }

    public Optional<Job> find(UUID id) {
        return jdbc.query("SELECT * FROM job WHERE id = ?", JOB, id).stream().findFirst();
    }

    /** Locks every unfinished job of a dataset, in id order (a fixed order: no deadlock between two callers). */
    public List<Job> lockUnfinished(UUID datasetId) {
        return jdbc.query("SELECT * FROM job WHERE dataset_id = ? AND state IN ('QUEUED', 'RUNNING') "
                + "ORDER BY id FOR UPDATE", JOB, datasetId);
    }

    public Optional<Job> lock(UUID id) {
        return jdbc.query("SELECT * FROM job WHERE id = ? FOR UPDATE", JOB, id).stream().findFirst();
    }

    /**
     * The newest DONE query job on this dataset with this request hash, admitted on the dataset's
     * current data version, that {@code subject} submitted or (when {@code owner}) that ran on a
     * dataset {@code subject} owns: the jobs {@code JobService.visible} shows the caller.
     */
    public Optional<Job> findReusable(UUID datasetId, String requestHash, String subject, boolean owner) {
        return jdbc.query("SELECT j.* FROM job j JOIN dataset d ON d.id = j.dataset_id WHERE j.dataset_id = ? "
                + "AND j.request_hash = ? AND j.state = 'DONE' AND j.data_version = d.data_version "
                + "AND (j.caller = ? OR (? AND j.dataset_owner = ?)) ORDER BY j.created_at DESC, j.id LIMIT 1", JOB,
                datasetId, requestHash, subject, owner, subject).stream().findFirst();
    }

    public Optional<Job> findByIdempotencyKey(UUID datasetId, String caller, String key) {
        return jdbc.query("SELECT * FROM job WHERE dataset_id = ? AND caller = ? AND idempotency_key = ?", JOB,
                datasetId, caller, key).stream().findFirst();
    }

    /**
     * Makes the current transaction commit without waiting for its WAL flush, as a CTE to prepend to
     * the statement that is the transaction's only write. Only for writes whose loss in a database
     * crash is harmless (a claim before data access, a progress value): a later durable commit (the
     * data-access mark, the result) flushes them first, as WAL is flushed in order.
     */
    private static final String WITHOUT_FLUSH = "WITH lazy AS (SELECT set_config('synchronous_commit', 'off', true)) ";

    /**
     * Claims the oldest queued job for this worker in one statement ({@code FOR UPDATE SKIP LOCKED}:
     * concurrent workers in any replica never get the same job). Its commit does not wait for the
     * flush ({@link #WITHOUT_FLUSH}): a claim lost in a crash leaves the job QUEUED, and the
     * data-access mark, which checks that the job is RUNNING under this worker, is durable.
     */
    public Optional<Job> claimNext(String worker, Instant now) {
        Timestamp at = Timestamp.from(now);
        return jdbc.query(WITHOUT_FLUSH + "UPDATE job SET state = 'RUNNING', lease_owner = ?, heartbeat_at = ?, "
                + "attempts = attempts + 1, started_at = coalesce(started_at, ?) FROM lazy WHERE id = (SELECT id FROM job "
                + "WHERE state = 'QUEUED' ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING job.*", JOB,
                worker, at, at).stream().findFirst();
    }

    /** Sets "data access started" on a locked RUNNING job owned by {@code worker}. */
    public void markDataAccess(UUID id, Instant now) {
        jdbc.update("UPDATE job SET data_access_started_at = ? WHERE id = ?", Timestamp.from(now), id);
    }

    public void transition(UUID id, JobState to, Instant now) {
        boolean terminal = to.isTerminal();
        jdbc.update("UPDATE job SET state = ?, finished_at = CASE WHEN ? THEN ? ELSE finished_at END, "
                        + "lease_owner = CASE WHEN ? = 'QUEUED' THEN NULL ELSE lease_owner END, "
                        + "progress = CASE WHEN ? = 'DONE' THEN 1 ELSE progress END WHERE id = ?",
                to.name(), terminal, Timestamp.from(now), to.name(), to.name(), id);
    }

    /**
     * Hands a RUNNING job that has not started data access back to the queue without counting the
     * claim as an attempt (this replica is stopping; the job did nothing).
     */
    public void requeueUnstarted(UUID id) {
        jdbc.update("UPDATE job SET state = 'QUEUED', lease_owner = NULL, heartbeat_at = NULL, "
                + "attempts = greatest(attempts - 1, 0) WHERE id = ? AND state = 'RUNNING' "
                + "AND data_access_started_at IS NULL", id);
    }

    public void recordError(UUID id, String code, String message) {
        jdbc.update("UPDATE job SET error_code = ?, error_message = ? WHERE id = ?", code, message, id);
    }

    /**
     * Updates a RUNNING job's progress (committed without waiting for the flush: {@link #WITHOUT_FLUSH});
     * returns 0 when the job is not RUNNING under {@code worker}.
     */
    public int progress(UUID id, String worker, double fraction) {
        return jdbc.update(WITHOUT_FLUSH + "UPDATE job SET progress = ? FROM lazy WHERE id = ? AND state = 'RUNNING' "
                + "AND lease_owner = ?", fraction, id, worker);
    }

    public int heartbeat(Collection<UUID> ids, String worker, Instant now) {
        if (ids.isEmpty()) {
            return 0;
        }
        return jdbc.execute((java.sql.Connection c) -> {
            Array array = c.createArrayOf("uuid", ids.toArray());
            try (var ps = c.prepareStatement("UPDATE job SET heartbeat_at = ? WHERE id = ANY (?) AND lease_owner = ? "
                    + "AND state = 'RUNNING'")) {
                ps.setTimestamp(1, Timestamp.from(now));
                ps.setArray(2, array);
                ps.setString(3, worker);
                return ps.executeUpdate();
            }
        });
    }

    /** Running jobs whose lease expired, locked (skipping ones another reaper holds). */
    public List<Job> lockExpired(Instant olderThan) {
        return jdbc.query("SELECT * FROM job WHERE state = 'RUNNING' AND heartbeat_at < ? ORDER BY heartbeat_at "
                + "FOR UPDATE SKIP LOCKED", JOB, Timestamp.from(olderThan));
    }

    public void insertResult(UUID id, JobOutput output, Instant now) {
        byte[] data = null;
        Integer[] shape = null;
        if (output.arrayData() != null) {
            ByteBuffer buffer = ByteBuffer.allocate(output.arrayData().length * 8).order(ByteOrder.LITTLE_ENDIAN);
            buffer.asDoubleBuffer().put(output.arrayData());
            data = buffer.array();
            shape = java.util.Arrays.stream(output.arrayShape()).boxed().toArray(Integer[]::new);
        }
        Integer[] finalShape = shape;
        byte[] finalData = data;
        jdbc.update(c -> {
            var ps = c.prepareStatement("INSERT INTO job_result (job_id, body, array_name, array_shape, array_data, "
                    + "created_at) VALUES (?, ?::jsonb, ?, ?, ?, ?)");
            ps.setObject(1, id);
            ps.setString(2, output.json());
            ps.setString(3, output.arrayName());
            ps.setArray(4, finalShape == null ? null : c.createArrayOf("integer", finalShape));
            ps.setBytes(5, finalData);
            ps.setTimestamp(6, Timestamp.from(now));
            return ps;
        });
    }

    public Optional<JobResult> result(UUID id) {
        return jdbc.query("SELECT body, array_name, array_shape, array_data FROM job_result WHERE job_id = ?", (rs, i) -> {
            Array shape = rs.getArray("array_shape");
            int[] dims = null;
            if (shape != null) {
                Integer[] boxed = (Integer[]) shape.getArray();
                dims = java.util.Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
            }
            return new JobResult(rs.getString("body"), rs.getString("array_name"), dims, rs.getBytes("array_data"));
        }, id).stream().findFirst();
    }

    public List<Job> listByDataset(UUID datasetId, int offset, int limit) {
        return jdbc.query("SELECT * FROM job WHERE dataset_id = ? ORDER BY created_at, id OFFSET ? LIMIT ?", JOB,
                datasetId, offset, limit);
    }

    /**
     * Jobs matching {@code filter} and visible as {@code scope} says, newest first. {@code visibleTo}
     * null: every job (admin); otherwise jobs submitted by that subject, plus, when {@code ownerScope},
     * jobs on datasets that subject owns.
     */
    public List<Job> list(JobFilter filter, @Nullable String visibleTo, boolean ownerScope, int offset,
            int limit) {
        List<Object> args = new java.util.ArrayList<>();
        String where = where(filter, visibleTo, ownerScope, args);
        args.add(offset);
        args.add(limit);
        return jdbc.query("SELECT * FROM job" + where + " ORDER BY created_at DESC, id DESC OFFSET ? LIMIT ?", JOB,
                args.toArray());
    }

    /** The number of jobs {@link #list} pages through. */
    public long count(JobFilter filter, @Nullable String visibleTo, boolean ownerScope) {
        List<Object> args = new java.util.ArrayList<>();
        String where = where(filter, visibleTo, ownerScope, args);
        Long n = jdbc.queryForObject("SELECT count(*) FROM job" + where, Long.class, args.toArray());
        return n == null ? 0 : n;
    }

    private static String where(JobFilter filter, @Nullable String visibleTo, boolean ownerScope,
            List<Object> args) {
        List<String> clauses = new java.util.ArrayList<>();
        if (visibleTo != null) {
            if (ownerScope) {
                clauses.add("(caller = ? OR dataset_owner = ?)");
                args.add(visibleTo);
                args.add(visibleTo);
            } else {
                clauses.add("caller = ?");
                args.add(visibleTo);
            }
        }
        if (filter.datasetId() != null) {
            clauses.add("dataset_id = ?");
            args.add(filter.datasetId());
        }
        if (filter.state() != null) {
            clauses.add("state = ?");
            args.add(filter.state().name());
        }
        if (filter.submitter() != null) {
            clauses.add("caller = ?");
            args.add(filter.submitter());
        }
        return clauses.isEmpty() ? "" : " WHERE " + String.join(" AND ", clauses);
    }
}
