package io.privmat.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs an external command for a test (python3, bash, tsc, node): in a directory, with extra
 * environment, its output and error combined, killed with its descendants after a timeout.
 */
public final class Commands {

    private Commands() {
    }

    /** The outcome of one run: exit code (−1 when killed or not startable), combined output, wall time. */
    public record Run(int exitCode, String output, Duration elapsed) {
    }

    /** Runs the command; a command that cannot be started (not installed) is an exit code of −1. */
    public static Run run(Path dir, Map<String, String> env, Duration timeout, List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        long start = System.nanoTime();
        try {
            Path log = Files.createTempFile("command-", ".log");
            try {
                pb.redirectOutput(log.toFile());
                Process p;
                try {
                    p = pb.start();
                } catch (IOException notStartable) {
                    return new Run(-1, "cannot run " + command.get(0) + ": " + notStartable.getMessage(), Duration.ZERO);
                }
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
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
