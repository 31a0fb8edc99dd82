package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.job.worker.WorkerPool;
import io.privmat.query.QueryRequest;
import io.privmat.query.admission.QueryService;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.support.ApiTest;
import io.privmat.support.Python;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * End-to-end job engine numbers on this machine: latency from submission to stored result,
 * throughput with concurrent clients (in this JVM, and in another process: src/bench/python/
 * admission_load.py, with the CPU time each admission costs the service's JVM, PostgreSQL and the
 * clients), and ledger admissions per second under 32-way contention on one dataset. Run:
 * {@code ./mvnw test -Pbenchmark -Dtest=JobEngineBenchmark}; {@code -Dprivmat.bench.queries=…}
 * changes the queries per throughput round (2000), {@code -Dprivmat.bench.admissionsOnly=true}
 * runs only the out-of-process admissions (docs/benchmarks.md, "Admissions from clients in another
 * process").
 */
@Tag("benchmark")
@TestPropertySource(properties = "privmat.embedded-postgres.database=bench_jobs")
class JobEngineBenchmark extends ApiTest {

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.0001}";

    @Autowired
    QueryService queries;

    @Autowired
    WorkerPool workers;

    @Autowired
    org.springframework.transaction.support.TransactionTemplate tx;

    private String dataset() {
        String id = postJson("/v1/datasets", "{\"name\":\"bench\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"budget\":{\"epsilon\":100,\"delta\":1e-6}}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(7);
        StringBuilder csv = new StringBuilder();
        for (int r = 0; r < 1000; r++) {
            for (int c = 0; c < 20; c++) {
                csv.append(c == 0 ? "" : ",").append(random.nextDouble() * 0.2);
            }
            csv.append('\n');
        }
        assertThat(put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes(StandardCharsets.UTF_8))
                .status()).isEqualTo(200);
        return id;
    }

    private static double percentile(List<Double> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    @Test
    void jobEngine() throws Exception {
        StringBuilder report = new StringBuilder();
        String dataset = dataset();
        // Warm-up.
        for (int i = 0; i < 100; i++) {
            awaitJob(postJson("/v1/datasets/" + dataset + "/queries", QUERY).json().get("id").asString());
        }
        boolean admissionsOnly = Boolean.getBoolean("privmat.bench.admissionsOnly");
        int total = Integer.getInteger("privmat.bench.queries", 2000);
        if (!admissionsOnly) {
        // A: one client, one query at a time: latency submission → result stored (server timestamps),
        // and client-observed submit → DONE seen (polling every 1 ms).
        List<Double> server = new ArrayList<>();
        List<Double> client = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long t0 = System.nanoTime();
            String job = postJson("/v1/datasets/" + dataset + "/queries", QUERY).json().get("id").asString();
            while (!get("/v1/jobs/" + job).json().get("state").asString().equals("DONE")) {
                Thread.sleep(1);
            }
            client.add((System.nanoTime() - t0) / 1e6);
            server.add(jdbc.queryForObject("SELECT extract(epoch FROM finished_at - created_at) * 1000 FROM job "
                    + "WHERE id = ?::uuid", Double.class, job));
        }
        Collections.sort(server);
        Collections.sort(client);
        report.append(String.format(Locale.ROOT, "latency, 1000x20 COLUMN_SUMS, sequential (n=300): server "
                        + "created->finished p50 %.1f ms, p99 %.1f ms; client submit->DONE seen p50 %.1f ms, p99 %.1f ms%n",
                percentile(server, 0.5), percentile(server, 0.99), percentile(client, 0.5), percentile(client, 0.99)));

        // B: 8 clients submit 2000 queries as fast as they can; all must complete.
        ExecutorService clients = Executors.newFixedThreadPool(8);
        ConcurrentLinkedQueue<String> ids = new ConcurrentLinkedQueue<>();
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            futures.add(clients.submit(() -> {
                while (next.getAndIncrement() < total) {
                    Response r = postJson("/v1/datasets/" + dataset + "/queries", QUERY);
                    assertThat(r.status()).isEqualTo(202);
                    ids.add(r.json().get("id").asString());
                }
            }));
        }
        for (var f : futures) {
            f.get();
        }
        double admitSeconds = (System.nanoTime() - start) / 1e9;
        for (String id : ids) {
            awaitJob(id);
        }
        double allSeconds = (System.nanoTime() - start) / 1e9;
        List<Double> lat = new ArrayList<>(jdbc.queryForList("SELECT extract(epoch FROM finished_at - created_at) "
                + "* 1000 FROM job WHERE id = ANY (?::uuid[])", Double.class, (Object) ids.toArray(String[]::new)));
        Collections.sort(lat);
        report.append(String.format(Locale.ROOT, "throughput, 8 clients, %d queries: admitted %.0f/s, completed "
                        + "%.0f/s end to end; server latency under load p50 %.1f ms, p99 %.1f ms%n", total,
                total / admitSeconds, total / allSeconds, percentile(lat, 0.5), percentile(lat, 0.99)));
        }

        // E: the same admissions from 8 clients in another process (src/bench/python/admission_load.py,
        // keep-alive connections), first with this replica's workers stopped (admission alone), then with
        // them running the backlog; CPU per admission of the service's JVM, PostgreSQL and the clients.
        // A first round, not reported, compiles the path (admissionsOnly skips A and B).
        for (String round : new String[] {"warm-up", "stopped", "running"}) {
            boolean running = round.equals("running");
            if (!running) {
                workers.stop();
            }
            try {
                long jvm0 = Cpu.jvmNanos();
                long pg0 = Cpu.postgresNanos(jdbc);
                Python.Run run = Python.run(Path.of("."), java.util.Map.of(), java.time.Duration.ofMinutes(5),
                        "src/bench/python/admission_load.py", Integer.toString(port), key(), dataset,
                        Integer.toString(total), "8", QUERY);
                long jvm1 = Cpu.jvmNanos();
                long pg1 = Cpu.postgresNanos(jdbc);
                assertThat(run.exitCode()).as(run.output()).isZero();
                tools.jackson.databind.JsonNode r = JSON.readTree(run.output().strip());
                assertThat(r.get("admitted").asInt()).as(run.output()).isEqualTo(total);
                double seconds = r.get("seconds").asDouble();
                if (round.equals("warm-up")) {
                    continue;
                }
                report.append(String.format(Locale.ROOT, "admissions, 8 clients in another process, %d queries, "
                                + "workers %s: admitted %.0f/s, submit p50 %.1f ms, p99 %.1f ms; CPU per admission: "
                                + "service JVM %.2f ms, PostgreSQL %.2f ms, clients %.2f ms (%.1f of 2 cores busy)%n",
                        total, running ? "running" : "stopped", total / seconds, r.get("p50").asDouble(),
                        r.get("p99").asDouble(), (jvm1 - jvm0) / 1e6 / total, (pg1 - pg0) / 1e6 / total,
                        r.get("cpu").asDouble() * 1000 / total,
                        ((jvm1 - jvm0) / 1e9 + (pg1 - pg0) / 1e9 + r.get("cpu").asDouble()) / seconds));
            } finally {
                if (!running) {
                    jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state = 'QUEUED'");
                    workers.start();
                }
            }
        }
        if (admissionsOnly) {
            System.out.println(report);
            return;
        }

        // D: where one admission's time goes, one at a time with the workers stopped: over HTTP, the
        // service call alone (plan + reserve + enqueue), and an empty durable commit (the WAL flush the
        // admission's commit waits for).
        workers.stop();
        try {
            QueryRequest one = new QueryRequest("COLUMN_SUMS", "GAUSSIAN", null, null, new BigDecimal("0.0001"), null);
            java.util.UUID id = java.util.UUID.fromString(dataset);
            Caller who = new Caller(java.util.UUID.randomUUID(), "owner-a",
                    Role.OWNER);
            List<Double> http = new ArrayList<>();
            List<Double> service = new ArrayList<>();
            List<Double> flush = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                long t0 = System.nanoTime();
                assertThat(postJson("/v1/datasets/" + dataset + "/queries", QUERY).status()).isEqualTo(202);
                long t1 = System.nanoTime();
                queries.submit(id, one, null, who);
                long t2 = System.nanoTime();
                tx.executeWithoutResult(s -> jdbc.queryForObject("SELECT txid_current()", Long.class));
                long t3 = System.nanoTime();
                http.add((t1 - t0) / 1e6);
                service.add((t2 - t1) / 1e6);
                flush.add((t3 - t2) / 1e6);
            }
            Collections.sort(http);
            Collections.sort(service);
            Collections.sort(flush);
            report.append(String.format(Locale.ROOT, "one admission at a time (n=200, workers stopped): over HTTP p50 "
                            + "%.2f ms, service call p50 %.2f ms, empty durable commit p50 %.2f ms%n",
                    percentile(http, 0.5), percentile(service, 0.5), percentile(flush, 0.5)));
        } finally {
            jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state = 'QUEUED'");
            workers.start();
        }

        // C: ledger admissions (plan + reserve + enqueue, one transaction each) from 32 threads on one
        // dataset, with this replica's workers stopped so that only admission is measured.
        workers.stop();
        try {
            int perThread = 200;
            ExecutorService contenders = Executors.newFixedThreadPool(32);
            CountDownLatch go = new CountDownLatch(1);
            QueryRequest request = new QueryRequest("COLUMN_SUMS", "GAUSSIAN", null, null, new BigDecimal("0.0001"), null);
            java.util.UUID datasetId = java.util.UUID.fromString(dataset);
            Caller owner = new Caller(java.util.UUID.randomUUID(), "owner-a",
                    Role.OWNER);
            List<java.util.concurrent.Future<?>> cf = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                cf.add(contenders.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        queries.submit(datasetId, request, null, owner);
                    }
                    return null;
                }));
            }
            long t0 = System.nanoTime();
            go.countDown();
            for (var f : cf) {
                f.get(5, TimeUnit.MINUTES);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            contenders.shutdown();
            report.append(String.format(Locale.ROOT, "ledger admissions, 32 threads on one dataset, %d admissions: "
                    + "%.0f admissions/s (%.2f ms each, serialised on the account row lock)%n", 32 * perThread,
                    32 * perThread / seconds, seconds * 1000 / (32 * perThread)));
        } finally {
            jdbc.update("UPDATE job SET state = 'CANCELLED' WHERE state = 'QUEUED'");
            workers.start();
        }
        System.out.println(report);
        Path out = Path.of("target/benchmarks/jobs.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }
}
