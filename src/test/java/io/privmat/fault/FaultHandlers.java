package io.privmat.fault;

import io.privmat.dataset.DatasetService;
import io.privmat.job.Job;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.job.JobService;
import io.privmat.job.worker.WorkerPool;
import io.privmat.ledger.BudgetService;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Test-only job kind {@value #KIND} for the fault suite: a job that blocks in {@code verify} (before
 * data access) for {@code verifyMillis} (or, with {@code verifyUntilStop}, until this replica's
 * worker pool stops), then "reads data" (its charge is committed) and runs for {@code runMillis},
 * or until {@link #release} when {@code latch} is set, or until the worker pool stops and then
 * {@code runMillisAfterStop} more, reporting progress (and so stopping when its job was taken
 * away). The "until stop" forms tie a job's stage to a shutdown whenever it comes, however long a
 * loaded machine took to get there. Also, for replicas in other processes, an unauthenticated
 * {@code POST /fault/datasets/{id}/jobs} that admits such a job.
 */
@TestConfiguration(proxyBeanMethods = false)
public class FaultHandlers {

    public static final String KIND = "FAULT_SLOW";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<UUID, CountDownLatch> LATCHES = new ConcurrentHashMap<>();
    /** Jobs whose handler is running now in this JVM. */
    public static final java.util.Set<UUID> RUNNING = ConcurrentHashMap.newKeySet();

    /** Lets a {@code latch} job of this JVM finish. */
    public static void release(UUID job) {
        latch(job).countDown();
    }

    private static CountDownLatch latch(UUID job) {
        return LATCHES.computeIfAbsent(job, k -> new CountDownLatch(1));
    }

    /**
     * @param replica this replica's name ({@code privmat.fault.replica}, default {@code main}): a job
     *     with {@code "verifyIn": "<name>"} blocks in verify only in that replica
     */
    @Bean
    JobHandler faultSlowHandler(@org.springframework.beans.factory.annotation.Value("${privmat.fault.replica:main}")
            String replica, org.springframework.beans.factory.ObjectProvider<WorkerPool> pools) {
        // Looked up when a job runs: the worker pool itself depends on the handlers.
        return new JobHandler() {
            @Override
            public String kind() {
                return KIND;
            }

            @Override
            public void verify(Job job) {
                JsonNode params = JSON.readTree(job.parameters());
                if (!params.has("verifyIn") || params.get("verifyIn").asString().equals(replica)) {
                    if (params.path("verifyUntilStop").asBoolean(false)) {
                        // Past the stop, so that the job meets a stopping executor (or is given up).
                        awaitStop(pools.getObject());
                        sleep(500);
                    } else {
                        sleep(params.path("verifyMillis").asLong(0));
                    }
                }
            }

            @Override
            public JobOutput run(JobContext context) throws InterruptedException {
                JsonNode params = JSON.readTree(context.job().parameters());
                long runMillis = params.path("runMillis").asLong(0);
                boolean latch = params.path("latch").asBoolean(false);
                boolean untilStop = params.has("runMillisAfterStop");
                UUID id = context.job().id();
                RUNNING.add(id);
                try {
                    if (untilStop) {
                        while (pools.getObject().isRunning()) {
                            context.progress(0.5);
                            Thread.sleep(50);
                        }
                        runMillis = params.get("runMillisAfterStop").asLong();
                    }
                    long start = System.nanoTime();
                    while (latch ? !latch(id).await(50, TimeUnit.MILLISECONDS)
                            : System.nanoTime() - start < runMillis * 1_000_000L) {
                        if (!latch) {
                            Thread.sleep(50);
                        }
                        context.progress(0.5);
                    }
                    return JobOutput.json("{\"ran\":true}");
                } finally {
                    RUNNING.remove(id);
                }
            }
        };
    }

    private static void awaitStop(WorkerPool pool) {
        while (pool.isRunning()) {
            sleep(50);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Bean
    FaultJobs faultJobs(DatasetService datasets, BudgetService budget, JobService jobs, TransactionTemplate tx) {
        return new FaultJobs(datasets, budget, jobs, tx);
    }

    /** Admits fault jobs in a replica that runs in another process (registered as a member of this configuration). */
    @RestController
    static class FaultJobController {
        private final FaultJobs jobs;

        FaultJobController(FaultJobs jobs) {
            this.jobs = jobs;
        }

        @PostMapping("/fault/datasets/{id}/jobs")
        String enqueue(@PathVariable UUID id, @RequestParam String caller, @RequestBody String parameters) {
            return jobs.enqueue(id, caller, parameters).toString();
        }
    }

    @Bean
    @Order(0)
    SecurityFilterChain faultChain(HttpSecurity http) throws Exception {
        return http.securityMatcher("/fault/**").csrf(c -> c.disable())
                .authorizeHttpRequests(a -> a.anyRequest().permitAll()).build();
    }
}
