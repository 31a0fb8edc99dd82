package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.RowStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.SparkContext;
import org.apache.spark.Success$;
import org.apache.spark.launcher.JavaModuleOptions;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * A real Spark standalone cluster: a master and two workers as separate JVMs on 127.0.0.1, started
 * here from the Spark jars on the test classpath, each worker with one core and its own executor JVM;
 * this JVM is the driver, through {@link SparkEngine} and {@link SparkDataAccess} as the service uses
 * them. The exact statistic (Gram and column sums, {@code FixedPointGram}'s integers merged by
 * {@code treeReduce} across processes) equals bit for bit the in-process value and embedded
 * {@code local[2]}'s; with one worker killed (its process and its executor's) after the first task
 * of the pass has finished, Spark recomputes the lost tasks on the other worker and the statistic is
 * still the same, bit for bit; Hardt–Roth's two passes on the executors give the in-process release
 * bit for bit, also with a worker killed in the middle of its second pass (a new worker first takes
 * the place of the one killed before). The executors get the project's classes as
 * {@code spark.executor.extraClassPath} = this JVM's test classpath (one machine), as the chart names
 * the service's classes for its workers (docs/scale-out.md "CI"). Every JVM started here is killed at
 * the end (and by a shutdown hook if this JVM exits first); their logs are under
 * {@code target/spark-cluster/}.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkClusterTest {

    static final int N = 2400;
    static final int D = 9;
    static final int FILES = 24;
    static final double B = 1.5;

    static Path dir;
    static Path logs;
    static ExternalSchema source;
    /** The same rows in the binary vector layout (read by ParquetVectors on the executors). */
    static ExternalSchema vectors;
    static DataAccess.Gram inProcess;
    static double[] inProcessSums;
    static DataAccess.Gram local;
    static double[] localSums;
    static double[] inProcessHardtRoth;
    static double[] clusterHardtRoth;

    static final List<Process> processes = new CopyOnWriteArrayList<>();
    static final List<Process> workers = new ArrayList<>();
    static final Set<Process> killedOnPurpose = java.util.concurrent.ConcurrentHashMap.newKeySet();
    static final List<Path> workDirs = new ArrayList<>();
    static String masterUrl;
    static Path logback;
    static SparkEngine cluster;
    static Tasks tasks;
    static final Thread HOOK = new Thread(SparkClusterTest::killAll, "spark-cluster-test-cleanup");

    @BeforeAll
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    static void startCluster() throws Exception {
        dir = SparkTestData.tempDir();
        double[][] x = SparkTestData.matrix(N, D, B, 34);
        source = new ExternalSchema(SparkTestData.write(x, dir, "files", ExternalSchema.Format.PARQUET, FILES),
                ExternalSchema.Format.PARQUET, SparkTestData.columns(D), (long) N);
        vectors = SparkTestData.writeVector(x, dir, "vectors", SparkTestData.Vector.BINARY, FILES, (long) N);
        DataAccess reference = new SparkTestData.LocalExact(SparkTestData.readBack(source), D, B);
        inProcess = reference.gram(true);
        inProcessSums = reference.columnSums();
        inProcessHardtRoth = SparkRowSketchesTest.values(hardtRoth().release(reference.rows(2),
                io.privmat.mechanism.noise.TestNoiseSources.seeded(7)));
        SparkDataAccess embedded = access(SparkTestData.engine());
        local = embedded.gram(true);
        localSums = embedded.columnSums();
        // One SparkContext per JVM: stop the embedded local[2] one (SparkEngine.session() starts a
        // new one at its next use, so the other Spark test classes are unaffected).
        stopSessions();

        logs = Path.of("target", "spark-cluster").toAbsolutePath();
        Files.createDirectories(logs.resolve("home").resolve("jars")); // SPARK_HOME for the workers: no jars of its own
        logback = logs.resolve("logback.xml");
        Files.writeString(logback, """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="org.apache.spark.deploy" level="INFO"/>
                  <logger name="org.apache.spark.executor" level="INFO"/>
                  <root level="WARN"><appender-ref ref="out"/></root>
                </configuration>
                """);
        Runtime.getRuntime().addShutdownHook(HOOK);

        long started = System.nanoTime();
        int masterPort = freePort();
        masterUrl = "spark://127.0.0.1:" + masterPort;
        start("master", logback, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                String.valueOf(masterPort), "--webui-port", "0");
        awaitPort(masterPort);
        for (int i = 1; i <= 2; i++) {
            startWorker();
        }
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.driver.host", "127.0.0.1");
        conf.put("spark.driver.bindAddress", "127.0.0.1");
        conf.put("spark.executor.memory", "512m");
        conf.put("spark.executor.cores", "1");
        conf.put("spark.cores.max", "2");
        conf.put("spark.executor.extraClassPath", classpath());
        conf.put("spark.executor.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dlogback.configurationFile="
                + logback);
        // The gate of the worker-loss test (inactive until the Hadoop property names a file).
        conf.put("spark.hadoop.fs.file.impl", GatedLocalFileSystem.class.getName());
        conf.put("spark.hadoop.fs.file.impl.disable.cache", "true");
        // One partition per file (an open costs as much as a full partition): 24 tasks per pass.
        conf.put("spark.sql.files.openCostInBytes", String.valueOf(128L << 20));
        cluster = new SparkEngine(new SparkSettings(true, masterUrl, "privmat-cluster-test", conf, 2, 64));
        SparkContext sc = cluster.session().sparkContext();
        tasks = new Tasks();
        sc.addSparkListener(tasks);
        awaitTwoExecutors(3);
        System.out.printf("spark cluster: master, two workers and their executors up in %.1f s%n",
                (System.nanoTime() - started) / 1e9);
    }

    @AfterAll
    static void stopCluster() {
        try {
            if (cluster != null) {
                cluster.destroy();
            }
        } finally {
            killAll();
            try {
                Runtime.getRuntime().removeShutdownHook(HOOK);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    @Test
    @Order(1)
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theClusterGivesTheInProcessAndEmbeddedStatisticBitForBit() {
        SparkContext sc = cluster.session().sparkContext();
        assertThat(sc.master()).isEqualTo(masterUrl);
        tasks.ends.clear();
        long started = System.nanoTime();
        DataAccess.Gram g = access(cluster).gram(true);
        double seconds = (System.nanoTime() - started) / 1e9;
        double[] sums = access(cluster).columnSums();
        assertThat(g.gram()).containsExactly(inProcess.gram()).containsExactly(local.gram());
        assertThat(g.sums()).containsExactly(inProcess.sums()).containsExactly(local.sums());
        assertThat(sums).containsExactly(inProcessSums).containsExactly(localSums);
        // Both executors (separate JVMs) computed partitions: the sums crossed processes.
        assertThat(tasks.successfulOn()).hasSize(2).doesNotContain("driver");
        // The vector layout, read on the executors by Parquet's column reader (ParquetVectors).
        ParquetVectors.Plan plan = ParquetVectors.plan(cluster.source(vectors));
        assertThat(plan).isNotNull();
        plan.conf().destroy();
        assertThat(access(cluster, vectors).gram(true).gram()).containsExactly(inProcess.gram());
        System.out.printf("spark cluster: Gram pass over %d rows in %d files on two workers: %.2f s%n", N, FILES,
                seconds);
    }

    @Test
    @Order(2)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aWorkerKilledMidPassLeavesTheStatisticBitForBitTheSame() throws IOException {
        SparkContext sc = cluster.session().sparkContext();
        // Partition 0 runs, every other task waits at the gate; when partition 0 has finished, its
        // worker and executor are killed (its finished output and its next, waiting task are lost),
        // then the gate opens.
        Armed kill = armKill("gate-open");
        Path gate = kill.gate();
        sc.hadoopConfiguration().set(GatedLocalFileSystem.GATE, gate.toString());
        long started = System.nanoTime();
        DataAccess.Gram g;
        try {
            g = access(cluster).gram(true);
        } finally {
            sc.hadoopConfiguration().unset(GatedLocalFileSystem.GATE);
            tasks.onFirstSuccess = null;
            open(gate);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        String killed = assertKilledMidPass(kill);
        assertThat(g.gram()).containsExactly(inProcess.gram()).containsExactly(local.gram());
        assertThat(g.sums()).containsExactly(inProcess.sums()).containsExactly(local.sums());
        System.out.printf("spark cluster: Gram pass with worker %s killed after partition 0: %.2f s, %d task ends "
                + "(%d lost)%n", killed, seconds, tasks.ends.size(), tasks.ends.stream().filter(End::lost).count());
    }

    @Test
    @Order(3)
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void hardtRothsPassesOnTheClusterGiveTheInProcessReleaseBitForBit() {
        // XΩ row by row in the executor JVMs (C1-compiled there: -XX:TieredStopAtLevel=1) and Q̃ᵀX̃ in
        // integers, merged across processes: the same u, s, v as in this JVM for the same seed.
        long started = System.nanoTime();
        double[] got = SparkRowSketchesTest.values(hardtRoth().release(access(cluster).rows(2),
                io.privmat.mechanism.noise.TestNoiseSources.seeded(7)));
        assertThat(got).containsExactly(inProcessHardtRoth);
        clusterHardtRoth = got;
        System.out.printf("spark cluster: Hardt-Roth release (two passes on the executors): %.2f s%n",
                (System.nanoTime() - started) / 1e9);
    }

    @Test
    @Order(4)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aWorkerKilledMidPassOfHardtRothLeavesTheReleaseBitForBitTheSame() throws Exception {
        // A new worker in place of the one the Gram's test killed: two executors again.
        long replacing = System.nanoTime();
        replaceLostWorkers();
        System.out.printf("spark cluster: a new worker and its executor up in %.1f s%n",
                (System.nanoTime() - replacing) / 1e9);
        SparkContext sc = cluster.session().sparkContext();
        // XΩ's pass runs ungated (its partitions are collected a few at a time, in small stages); in
        // Q̃ᵀX̃'s pass (its first stage has a task per file) partition 0 runs, its worker is killed
        // when it has finished (its shuffle output and its next, waiting task are lost), then the
        // gate opens: the lost partitions are computed again, rows and Q̃'s slices, on the survivor.
        Armed kill = armKill("gate-open-hardt-roth");
        Path gate = kill.gate();
        RowStream gated = SparkRowSketchesTest.aroundSecondPass(access(cluster).rows(2), pass -> {
            sc.hadoopConfiguration().set(GatedLocalFileSystem.GATE, gate.toString());
            try {
                return pass.get();
            } finally {
                sc.hadoopConfiguration().unset(GatedLocalFileSystem.GATE);
            }
        });
        long started = System.nanoTime();
        double[] got;
        try {
            got = SparkRowSketchesTest.values(hardtRoth().release(gated,
                    io.privmat.mechanism.noise.TestNoiseSources.seeded(7)));
        } finally {
            tasks.onFirstSuccess = null;
            open(gate);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        String killed = assertKilledMidPass(kill);
        assertThat(got).containsExactly(inProcessHardtRoth);
        assertThat(clusterHardtRoth).as("the cluster's release without a kill (the test before)").isNotNull();
        assertThat(got).containsExactly(clusterHardtRoth);
        System.out.printf("spark cluster: Hardt-Roth release with worker %s killed after partition 0 of the second "
                + "pass: %.2f s, %d task ends (%d lost)%n", killed, seconds, tasks.ends.size(),
                tasks.ends.stream().filter(End::lost).count());
    }

    /** A kill armed for the next pass over the files: its gate, and the executor whose worker it killed. */
    record Armed(Path gate, AtomicReference<String> killed) {}

    /**
     * At the first finished task of the next stage with a task per file: kill the worker whose
     * executor ran it, then open the gate (a file under the test's directory, not there yet).
     */
    private static Armed armKill(String gateName) {
        String app = cluster.session().sparkContext().applicationId();
        Armed armed = new Armed(dir.resolve(gateName), new AtomicReference<>());
        tasks.ends.clear();
        tasks.actedIn = -1;
        tasks.onFirstSuccess = killItsWorker(app, armed.killed(), armed.gate());
        return armed;
    }

    /**
     * The kill was mid-pass: a task was lost with the executor, partition 0's finished result was
     * lost and computed again, and the rest of the pass ran on the surviving executor. The killed
     * executor's id.
     */
    private static String assertKilledMidPass(Armed kill) {
        String killed = kill.killed().get();
        assertThat(killed).as("the worker that ran partition 0 was killed").isNotNull();
        assertThat(tasks.ends).anySatisfy(e -> assertThat(e.lost()).isTrue());
        assertThat(tasks.ends.stream().filter(e -> e.success() && e.partition() == 0 && e.stage() == tasks.actedIn))
                .hasSize(2);
        assertThat(tasks.successfulOn()).contains(killed).hasSize(2);
        return killed;
    }

    /** At the first finished task of a pass: kill the worker whose executor ran it, then open the gate. */
    private static Consumer<String> killItsWorker(String app, AtomicReference<String> killed, Path gate) {
        return executor -> {
            try {
                for (int i = 0; i < workers.size(); i++) {
                    if (Files.isDirectory(workDirs.get(i).resolve(app).resolve(executor))) {
                        kill(workers.get(i));
                        killed.set(executor);
                    }
                }
            } finally {
                open(gate);
            }
        };
    }

    private static void startWorker() throws IOException {
        String name = "worker-" + (workers.size() + 1);
        Path work = logs.resolve(name);
        Files.createDirectories(work);
        workDirs.add(work);
        workers.add(start(name, logback, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                "--port", "0", "--webui-port", "0", "--cores", "1", "--memory", "640m", "--work-dir",
                work.toString(), masterUrl));
    }

    /** Starts workers until two are alive, and waits for the application's executor on each. */
    private static void replaceLostWorkers() throws IOException, InterruptedException {
        while (workers.stream().filter(Process::isAlive).count() < 2) {
            startWorker();
        }
        awaitTwoExecutors(2);
    }

    /** Waits (at most {@code minutes}) until the application has two executors. */
    private static void awaitTwoExecutors(int minutes) throws InterruptedException {
        SparkContext sc = cluster.session().sparkContext();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
        while (sc.statusTracker().getExecutorInfos().length < 3) { // the driver and two executors
            assertAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the executors did not register; see " + logs);
            }
            Thread.sleep(200);
        }
    }

    private static io.privmat.mechanism.lowrank.HardtRothMechanism hardtRoth() {
        return io.privmat.mechanism.lowrank.HardtRothMechanism.of(N, D, 2, 4, B, 1, java.math.BigDecimal.ONE,
                new java.math.BigDecimal("1e-6"));
    }

    private static SparkDataAccess access(SparkEngine engine) {
        return access(engine, source);
    }

    private static SparkDataAccess access(SparkEngine engine, ExternalSchema schema) {
        return new SparkDataAccess(engine, schema, SparkTestData.facts(D, B, (long) N,
                NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
    }

    private static void stopSessions() {
        for (var session : List.of(SparkSession.getActiveSession(), SparkSession.getDefaultSession())) {
            if (session.isDefined()) {
                session.get().stop();
            }
        }
    }

    /** The classes and jars of this test JVM (surefire passes them in a manifest-only jar). */
    private static String classpath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /**
     * What the master and workers need ahead of the test classpath: the Servlet 5 API of Spark's
     * Jetty (their web UIs), which the pom's {@code spark} profile copies to target/spark-daemon-lib.
     */
    private static String daemonClasspath() throws IOException {
        Path lib = Path.of("target", "spark-daemon-lib").toAbsolutePath();
        try (var jars = Files.list(lib)) {
            return jars.filter(j -> j.toString().endsWith(".jar")).map(Path::toString).sorted()
                    .collect(Collectors.joining(java.io.File.pathSeparator));
        }
    }

    private static Process start(String name, Path logback, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(List.of(JavaModuleOptions.defaultModuleOptionArray()));
        command.add("-Dlogback.configurationFile=" + logback);
        command.addAll(List.of("-cp", daemonClasspath() + java.io.File.pathSeparator + classpath(),
                Daemon.class.getName(), mainClass));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".log").toFile());
        builder.environment().put("SPARK_HOME", logs.resolve("home").toString());
        builder.environment().put("SPARK_SCALA_VERSION", "2.13");
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // web UIs and executors on loopback too
        Process p = builder.start();
        processes.add(p);
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitPort(int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            assertAlive();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the master did not listen on " + port + "; see " + logs);
                }
                Thread.sleep(200);
            }
        }
    }

    /** Every process but those killed on purpose is alive. */
    private static void assertAlive() {
        for (Process p : processes) {
            if (!p.isAlive() && !killedOnPurpose.contains(p)) {
                throw new IllegalStateException("a cluster process exited (" + p.exitValue() + "); see " + logs);
            }
        }
    }

    /** A worker and everything it started (its executor), at once, as a lost machine. */
    private static void kill(Process p) {
        killedOnPurpose.add(p);
        List<ProcessHandle> children = p.descendants().toList();
        p.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        await(p.toHandle(), children);
    }

    private static void await(ProcessHandle p, Collection<ProcessHandle> children) {
        try {
            p.onExit().get(30, TimeUnit.SECONDS);
            for (ProcessHandle c : children) {
                c.onExit().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("a cluster process did not exit", e);
        }
    }

    static void killAll() {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void open(Path gate) {
        try {
            if (!Files.exists(gate)) {
                Files.createFile(gate);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs a Spark daemon's main class, and ends it when the JVM that started it ends (its standard
     * input, a pipe from that JVM, closes): no daemon outlives the test, not even when the test JVM is
     * killed without running its shutdown hooks. A worker's exit kills its executor (its own hook).
     */
    static final class Daemon {
        public static void main(String[] args) throws ReflectiveOperationException {
            Thread watch = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // nothing is ever written; wait for the end of the stream
                    }
                } catch (IOException closed) {
                    // the parent is gone as well
                }
                System.exit(0);
            }, "parent-watch");
            watch.setDaemon(true);
            watch.start();
            Class.forName(args[0]).getMethod("main", String[].class).invoke(null,
                    (Object) java.util.Arrays.copyOfRange(args, 1, args.length));
        }
    }

    /** One finished task attempt, as the driver saw it. */
    record End(int stage, int partition, String executor, boolean success, boolean lost) {}

    /**
     * Every task end of the cluster's jobs, and an action at the first successful task of a pass
     * over the files (a stage of {@link #FILES} tasks: not the one-task job that reads a Parquet
     * footer for the schema).
     */
    static final class Tasks extends SparkListener {
        final List<End> ends = new CopyOnWriteArrayList<>();
        final Map<Integer, Integer> stageTasks = new java.util.concurrent.ConcurrentHashMap<>();
        volatile Consumer<String> onFirstSuccess;
        volatile int actedIn = -1;

        @Override
        public void onStageSubmitted(SparkListenerStageSubmitted e) {
            stageTasks.put(e.stageInfo().stageId(), e.stageInfo().numTasks());
        }

        @Override
        public void onTaskEnd(SparkListenerTaskEnd e) {
            boolean success = e.reason() instanceof Success$;
            ends.add(new End(e.stageId(), e.taskInfo().partitionId(), e.taskInfo().executorId(), success,
                    e.reason() instanceof ExecutorLostFailure));
            Consumer<String> action = onFirstSuccess;
            if (success && action != null && stageTasks.getOrDefault(e.stageId(), 0) == FILES) {
                onFirstSuccess = null;
                actedIn = e.stageId();
                action.accept(e.taskInfo().executorId());
            }
        }

        Set<String> successfulOn() {
            return ends.stream().filter(End::success).map(End::executor).collect(Collectors.toSet());
        }
    }
}
