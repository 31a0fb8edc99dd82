package io.privmat.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The event metrics of the service: counters and timers recorded where things happen. Tags are names
 * from the catalogue, job states and problem types (bounded sets), never data values or dataset ids.
 * The gauges read from the database (jobs by state, budgets) are {@link StateGauges}.
 */
@Component
public class ServiceMetrics {

    /** Records nothing: for components built outside Spring (tests, the worker's own wiring). */
    public static final ServiceMetrics NONE = new ServiceMetrics(new CompositeMeterRegistry());

    private final MeterRegistry registry;

    public ServiceMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A job was admitted: its cost reserved and the job queued (or a subscription recorded). */
    public void admitted(String kind, String mechanism) {
        Counter.builder("privmat.jobs.admitted").description("Jobs admitted (budget reserved, job queued)")
                .tag("kind", kind).tag("mechanism", mechanism).register(registry).increment();
    }

    /** A job was claimed by a worker for the first time, {@code wait} after its submission. */
    public void queueWait(String kind, String mechanism, Duration wait) {
        Timer.builder("privmat.jobs.queue.wait").description("Time from submission to the first claim by a worker")
                .tag("kind", kind).tag("mechanism", mechanism).register(registry).record(positive(wait));
    }

    /** A worker finished a job in {@code state} (DONE or FAILED), {@code running} after it first started. */
    public void finished(String kind, String mechanism, String state, Duration running) {
        Timer.builder("privmat.jobs.duration").description("Running time of jobs a worker finished (data-dependent)")
                .tag("kind", kind).tag("mechanism", mechanism).tag("state", state).register(registry)
                .record(positive(running));
    }

    /**
     * A job failed; {@code cause} is a class of failure, not a message: {@code sampler} (an exact
     * sampler gave up), {@code numerical} (a decomposition did not converge), {@code memory},
     * {@code plan-mismatch}, {@code strategy-failed}, {@code unknown-kind}, {@code worker-lost}, {@code other}.
     */
    public void failure(String kind, String mechanism, String cause) {
        Counter.builder("privmat.jobs.failures").description("Failed jobs by class of failure")
                .tag("kind", kind).tag("mechanism", mechanism).tag("cause", cause).register(registry).increment();
    }

    /**
     * A request was answered with a problem of this type (its slug, e.g. budget-exhausted,
     * rate-limited): refusals and client errors alike.
     */
    public void problem(String type, int status) {
        Counter.builder("privmat.problems").description("Problem responses by type (refusals and errors)")
                .tag("type", type).tag("status", Integer.toString(status)).register(registry).increment();
    }

    /** An upload was stored: body bytes, rows (or edges, or records) and the time it took. */
    public void ingested(String datasetKind, long bytes, long rows, Duration took) {
        Counter.builder("privmat.ingest.bytes").description("Bytes of stored uploads").baseUnit("bytes")
                .tag("kind", datasetKind).register(registry).increment(bytes);
        Counter.builder("privmat.ingest.rows").description("Rows, edges or records of stored uploads")
                .tag("kind", datasetKind).register(registry).increment(rows);
        Timer.builder("privmat.ingest.duration").description("Time to receive, parse and store an upload")
                .tag("kind", datasetKind).register(registry).record(positive(took));
    }

    /**
     * TIME blocks whose releases were computed after their publication time (start + (i + 1)·s + D):
     * the scheduler was down, behind, or slower than privmat.streams.release-delay.
     */
    public void lateTimeReleases(int blocks) {
        Counter.builder("privmat.streams.releases.late").description("TIME blocks released after their "
                + "publication time").register(registry).increment(blocks);
    }

    /** Rows appended to a STREAM dataset (counted with the uploads' rows, dataset kind STREAM). */
    public void appended(long rows) {
        Counter.builder("privmat.ingest.rows").description("Rows, edges or records of stored uploads")
                .tag("kind", "STREAM").register(registry).increment(rows);
    }

    private static Duration positive(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
