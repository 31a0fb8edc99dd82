package io.privmat.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.Python;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs every example of examples/ end to end against this service (PRIVMAT_EXAMPLE_QUICK=1: a
 * bounded subset, e.g. 2000 Fashion-MNIST images), each within a time limit. Plots, when
 * matplotlib is installed, go to target/examples.
 */
class ExamplesTest extends ApiTest {

    @BeforeEach
    void python() {
        Python.assumeAvailable();
    }

    @ParameterizedTest
    @ValueSource(strings = {"worked_session", "budget_running_out", "graph_cuts", "pca_fashion_mnist"})
    void exampleRunsEndToEnd(String name) throws Exception {
        Path out = Files.createDirectories(Path.of("target", "examples"));
        Python.Run run = Python.run(Path.of("examples"), Map.of("PRIVMAT_URL", "http://localhost:" + port,
                "PRIVMAT_ADMIN_KEY", ADMIN_KEY, "PRIVMAT_EXAMPLE_QUICK", "1",
                "PRIVMAT_EXAMPLE_OUT", out.toAbsolutePath().toString()), Duration.ofSeconds(120), name + ".py");
        System.out.println("examples/" + name + ".py in " + run.elapsed().toMillis() + " ms:\n" + run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains(": OK");
        assertThat(run.output()).as("numbers print as numbers, not numpy reprs").doesNotContain("np.float64(");
    }

    /** Without a service at PRIVMAT_URL an example says so in one line (no traceback) and fails. */
    @Test
    void anExampleWithoutAServiceSaysSoInOneLine() throws Exception {
        int closed;
        try (var socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Python.Run run = Python.run(Path.of("examples"), Map.of("PRIVMAT_URL", "http://localhost:" + closed,
                "PRIVMAT_ADMIN_KEY", ADMIN_KEY), Duration.ofSeconds(60), "worked_session.py");
        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output().strip()).doesNotContain("Traceback").doesNotContain("\n")
                .startsWith("cannot reach the privmat service at http://localhost:" + closed)
                .contains("PRIVMAT_URL");
    }
}
