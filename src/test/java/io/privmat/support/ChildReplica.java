package io.privmat.support;

import io.privmat.fault.ReplicaMain;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A privmat replica in a separate JVM ({@link ReplicaMain}), for faults a test JVM cannot inflict on
 * itself: a real SIGTERM, a kill -9. Its log goes to {@code target/fault-replicas/<name>.log}.
 */
public final class ChildReplica implements AutoCloseable {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final int port;
    private final Path log;

    private ChildReplica(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts a replica with these settings ({@code name=value}) and waits until it is ready. */
    public static ChildReplica start(String name, Map<String, String> settings) throws IOException, InterruptedException {
        return start(name, settings, List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    }

    /**
     * As {@link #start(String, Map)}, with these JVM options instead of the small, quick-starting
     * defaults (e.g. none, for the JVM's own defaults as in production).
     */
    public static ChildReplica start(String name, Map<String, String> settings, List<String> jvmOptions)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path dir = Path.of("target", "fault-replicas");
        Files.createDirectories(dir);
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ReplicaMain.class.getName(),
                "--server.port=" + port));
        settings.forEach((k, v) -> command.add("--" + k + "=" + v));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        ChildReplica replica = new ChildReplica(process, port, log);
        Duration patience = Patience.of(Duration.ofSeconds(120)); // a JVM start; slower on a loaded machine
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("replica " + name + " exited; see " + log);
            }
            if (replica.status("/actuator/health/readiness") == 200) {
                return replica;
            }
            Thread.sleep(250);
        }
        replica.close();
        throw new IllegalStateException("replica " + name + " not ready after " + patience.toSeconds() + " s; see "
                + log);
    }

    /** The replica's process id. */
    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    public URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    /** The status of a GET, or −1 if the replica does not answer. */
    public int status(String path) {
        try {
            return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** POSTs a body and returns the response body (throws unless 2xx). */
    public String post(String path, String contentType, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** SIGTERM, as Kubernetes sends it. */
    public void sigterm() {
        process.destroy();
    }

    /** SIGKILL: no shutdown hook runs. */
    public void kill9() {
        process.destroyForcibly();
    }

    /** Waits for the process to end; its exit code, or null if it did not end in time. */
    public Integer awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    public String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /**
     * Ends the replica if a test left it running: SIGTERM first, so that an embedded PostgreSQL it
     * runs is stopped too (a postmaster outlives a kill -9 of its JVM), then SIGKILL after 30 s
     * (scaled by {@link Patience}).
     */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(Patience.millis(30_000), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
