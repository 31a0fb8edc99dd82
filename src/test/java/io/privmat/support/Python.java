package io.privmat.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        assume("import numpy", "python3 with numpy is not available (install python3 and python3-numpy): ");
    }

    /** Aborts the calling test unless python3 can run here (numpy or not). */
    public static void assumePython() {
        assume("pass", "python3 is not available: ");
    }

    private static void assume(String code, String message) {
        Run probe;
        try {
            probe = run(Path.of("."), Map.of(), Duration.ofSeconds(30), "-c", code);
        } catch (IllegalStateException e) {
            probe = new Run(-1, e.getMessage(), Duration.ZERO);
        }
        Assumptions.assumeTrue(probe.exitCode() == 0, message + probe.output());
    }

    /** Runs python3 with these arguments in dir, with extra environment, killed after the timeout. */
    public static Run run(Path dir, Map<String, String> env, Duration timeout, String... args) {
        return run("python3", dir, env, timeout, args);
    }

    /** Runs this Python interpreter (python3, or a virtual environment's) with these arguments. */
    public static Run run(String python, Path dir, Map<String, String> env, Duration timeout, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(python));
        command.addAll(List.of(args));
        Map<String, String> environment = new java.util.HashMap<>(env);
        environment.put("PYTHONDONTWRITEBYTECODE", "1");
        environment.put("PYTHONUNBUFFERED", "1");
        Commands.Run run = Commands.run(dir, environment, timeout, command);
        if (run.exitCode() == -1 && run.elapsed().isZero()) {
            throw new IllegalStateException(run.output());
        }
        return new Run(run.exitCode(), run.output(), run.elapsed());
    }
}
