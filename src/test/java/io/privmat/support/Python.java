package io.privmat.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs python3 scripts for the tests of the Python client and the examples. Absent python3 or numpy
 * (Debian: python3, python3-numpy; .ci/run installs them when it can) aborts the test with that
 * message rather than failing it.
 */
public final class Python {

    private Python() {
    }

    /** The outcome of one run: exit code, combined output, wall time. */
    public record Run(int exitCode, String output, Duration elapsed) {
    }

    /** Aborts the calling test unless python3 with numpy can run here. */
    public static void assumeAvailable() {
        Run probe;
        try {
            probe = run(Path.of("."), Map.of(), Duration.ofSeconds(30), "-c", "import numpy");
        } catch (IllegalStateException e) {
            probe = new Run(-1, e.getMessage(), Duration.ZERO);
        }
        Assumptions.assumeTrue(probe.exitCode() == 0,
                "python3 with numpy is not available (install python3 and python3-numpy): " + probe.output());
    }

    /** Runs python3 with these arguments in dir, with extra environment, killed after the timeout. */
    public static Run run(Path dir, Map<String, String> env, Duration timeout, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("python3"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        pb.environment().put("PYTHONUNBUFFERED", "1");
        long start = System.nanoTime();
        try {
            Path log = Files.createTempFile("python-", ".log");
            try {
                pb.redirectOutput(log.toFile());
                Process p = pb.start();
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    String out = Files.readString(log, StandardCharsets.UTF_8);
                    return new Run(-1, out + "\n[killed after " + timeout + "]",
                            Duration.ofNanos(System.nanoTime() - start));
                }
                return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8),
                        Duration.ofNanos(System.nanoTime() - start));
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run python3: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
