package io.privmat.job;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.dataset.DatasetDeleting;
import io.privmat.job.jdbc.JobRepository;
import io.privmat.ledger.BudgetService;
import io.privmat.metrics.ServiceMetrics;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Enqueues, reads and cancels jobs. */
@Service
public class JobService {

    private final JobRepository repository;
    private final BudgetService budget;
    private final JobWakeups wakeups;
    private final Clock clock;
    private ServiceMetrics metrics = ServiceMetrics.NONE;

    public JobService(JobRepository repository, BudgetService budget, JobWakeups wakeups, Clock clock) {
        this.repository = repository;
        this.budget = budget;
        this.wakeups = wakeups;
        this.clock = clock;
    }

    @org.springframework.beans.factory.annotation.Autowired(required = false)
    void setMetrics(ServiceMetrics metrics) {
        this.metrics = metrics;
    }

    /** Records a QUEUED job in the caller's transaction (the one that reserved its budget). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void enqueue(NewJob job) {
        enqueueAll(List.of(job));
    }

    /**
     * Records QUEUED jobs in the caller's transaction (the one that reserved their budget), with one
     * statement, and returns them as stored: no read-back after the commit.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public List<Job> enqueueAll(List<NewJob> newJobs) {
        List<java.time.Instant> createdAt = new java.util.ArrayList<>(newJobs.size());
        for (int i = 0; i < newJobs.size(); i++) {
            createdAt.add(clock.instant());
        }
        List<Job> stored = repository.insertAll(newJobs, createdAt);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                for (NewJob job : newJobs) {
                    metrics.admitted(job.kind(), job.mechanism());
                }
                wakeups.signal();
            }
        });
        return stored;
    }

    /**
     * Records a standing subscription as a job, in the caller's transaction (the one that reserved and
     * committed its charge): DONE at once with data access started (its charge is final), its result
     * the subscription's description. Its ledger entries and its releases name this job; the worker
     * never sees it (it is never QUEUED).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void recordSubscription(NewJob job, String descriptionJson) {
        java.time.Instant now = clock.instant();
        repository.insertDone(job, now);
        repository.insertResult(job.id(), JobOutput.json(descriptionJson), now);
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                metrics.admitted(job.kind(), job.mechanism());
            }
        });
    }

    /** Any job, without an access check (internal use). */
    @Transactional(readOnly = true)
    public Job get(UUID id) {
        return repository.find(id).orElseThrow(() -> new JobNotFoundException(id));
    }

    /**
     * A job the caller may see: the one who submitted it, or its dataset's owner. Anything else is
     * 404 (as for a job that does not exist).
     */
    @Transactional(readOnly = true)
    public Job visible(UUID id, Caller caller) {
        Job job = get(id);
        requireVisible(job, caller);
        return job;
    }

    private static void requireVisible(Job job, Caller caller) {
        boolean submitter = job.caller().equals(caller.subject());
        boolean owner = caller.is(Role.OWNER) && job.datasetOwner().equals(caller.subject());
        if (!submitter && !owner) {
            throw new JobNotFoundException(job.id());
        }
    }

    /**
     * An earlier DONE job whose stored release answers this request again (docs/accounting.md,
     * "Repeat answers"): same dataset, same request hash, admitted on the dataset's current data
     * version, and one the caller may see ({@link #visible}: submitted by them, or on a dataset
     * they own as OWNER).
     */
    @Transactional(readOnly = true)
    public Optional<Job> findReusable(UUID datasetId, String requestHash, Caller caller) {
        return repository.findReusable(datasetId, requestHash, caller.subject(), caller.is(Role.OWNER));
    }

    @Transactional(readOnly = true)
    public Optional<Job> findByIdempotencyKey(UUID datasetId, String caller, String key) {
        return repository.findByIdempotencyKey(datasetId, caller, key);
    }

    @Transactional(readOnly = true)
    public List<Job> listByDataset(UUID datasetId, int offset, int limit) {
        return repository.listByDataset(datasetId, offset, limit);
    }

    /**
     * One page of the jobs {@code caller} may see, newest first: an admin every job, an owner the jobs on
     * the datasets it owns (and any it submitted), an analyst its own. Filters narrow this, never widen it.
     */
    @Transactional(readOnly = true)
    public List<Job> list(Caller caller, JobFilter filter, int offset, int limit) {
        return caller.is(Role.ADMIN) ? repository.list(filter, null, false, offset, limit)
                : repository.list(filter, caller.subject(), caller.is(Role.OWNER), offset, limit);
    }

    /** The total {@link #list} pages through. */
    @Transactional(readOnly = true)
    public long count(Caller caller, JobFilter filter) {
        return caller.is(Role.ADMIN) ? repository.count(filter, null, false)
                : repository.count(filter, caller.subject(), caller.is(Role.OWNER));
    }

    /** The stored result of a DONE job; 409 while it is not done. */
    @Transactional(readOnly = true)
    public JobResult result(UUID id, Caller caller) {
        Job job = visible(id, caller);
        if (job.state() != JobState.DONE) {
            throw new PrivmatException(ProblemType.JOB_NOT_FINISHED, "Job " + id + " is " + job.state()
                    + "; a result exists only for DONE jobs.", Map.of("state", job.state().name()));
        }
        return repository.result(id).orElseThrow(() -> new IllegalStateException("DONE job without result"));
    }

    /**
     * Settles the jobs of a dataset being deleted, in the deleting transaction: every QUEUED job,
     * and every RUNNING job that has not started reading data, is CANCELLED and refunded (a REFUND
     * entry); a job that has read data keeps its COMMIT. So no reservation is left unsettled when
     * the dataset's jobs are deleted with it.
     */
    @EventListener
    @Transactional(propagation = Propagation.MANDATORY)
    public void onDatasetDeleting(DatasetDeleting event) {
        for (Job job : repository.lockUnfinished(event.datasetId())) {
            repository.transition(job.id(), JobState.CANCELLED, clock.instant());
            if (job.dataAccessStartedAt() == null) {
                budget.refund(job.id());
                repository.recordError(job.id(), "DATASET_DELETED", "The dataset was deleted before data access; "
                        + "the charge was refunded.");
            } else {
                repository.recordError(job.id(), "DATASET_DELETED", "The dataset was deleted after data access "
                        + "started; the charge is kept.");
            }
        }
    }

    /**
     * Cancels a job. QUEUED, or RUNNING before data access: CANCELLED and refunded. RUNNING after
     * data access: CANCELLED with the charge kept (the worker's result is discarded). Finished
     * jobs answer 409.
     */
    @Transactional
    public Job cancel(UUID id, Caller caller) {
        Job job = repository.lock(id).orElseThrow(() -> new JobNotFoundException(id));
        requireVisible(job, caller);
        if (job.state().isTerminal()) {
            throw new PrivmatException(ProblemType.JOB_ALREADY_FINISHED, "Job " + id + " is already " + job.state()
                    + ".", Map.of("state", job.state().name()));
        }
        job.state().requireTransition(JobState.CANCELLED);
        repository.transition(id, JobState.CANCELLED, clock.instant());
        if (job.dataAccessStartedAt() == null) {
            budget.refund(id);
            repository.recordError(id, "CANCELLED", "Cancelled before data access; the charge was refunded.");
        } else {
            repository.recordError(id, "CANCELLED", "Cancelled after data access started; the charge is kept.");
        }
        return repository.find(id).orElseThrow();
    }
}
