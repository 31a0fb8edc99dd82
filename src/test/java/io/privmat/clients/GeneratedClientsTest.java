package io.privmat.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.Commands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * openapi.yaml as other languages' default generators see it: the Python and TypeScript (fetch)
 * clients that openapi-generator writes with its default options (the build's generate-test-sources
 * phase, into target/generated-clients) run a whole session against this service — keys, dataset,
 * upload, grant, quote, submit, poll, typed results of two kinds, budget, a 409 problem
 * (src/test/python/generated_client_flow.py, src/test/typescript/generated_client_flow.ts). Each is
 * skipped, saying what is missing, where its runtime is not installed: the generated Python client
 * needs pydantic 2, urllib3 2, python-dateutil and typing-extensions; the TypeScript one tsc and node.
 */
class GeneratedClientsTest extends ApiTest {

    private static final Path GENERATED = Path.of("target", "generated-clients");

    @Test
    void theGeneratedPythonClientRunsAWholeSession() {
        Path client = generated("python");
        Commands.Run probe = Commands.run(client, Map.of(), Duration.ofSeconds(60), List.of("python3", "-c",
                "import pydantic, urllib3, dateutil, typing_extensions; "
                        + "assert int(pydantic.VERSION.split('.')[0]) >= 2 and int(urllib3.__version__.split('.')[0]) >= 2, "
                        + "('pydantic', pydantic.VERSION, 'urllib3', urllib3.__version__)"));
        Assumptions.assumeTrue(probe.exitCode() == 0, "the generated Python client needs python3 with pydantic 2, "
                + "urllib3 2, python-dateutil and typing-extensions: " + probe.output().strip());
        Commands.Run run = Commands.run(client, Map.of("PYTHONPATH", client.toAbsolutePath().toString(),
                "PYTHONDONTWRITEBYTECODE", "1"), Duration.ofMinutes(2), List.of("python3",
                Path.of("src/test/python/generated_client_flow.py").toAbsolutePath().toString(),
                "http://localhost:" + port, ADMIN_KEY));
        System.out.println("generated Python client in " + run.elapsed().toMillis() + " ms:\n" + run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("generated python client: OK");
    }

    @Test
    void theGeneratedTypeScriptClientRunsAWholeSession() throws Exception {
        Path client = generated("typescript");
        Commands.Run tsc = Commands.run(client, Map.of(), Duration.ofSeconds(60), List.of("tsc", "--version"));
        Commands.Run node = Commands.run(client, Map.of(), Duration.ofSeconds(60), List.of("node", "--version"));
        Assumptions.assumeTrue(tsc.exitCode() == 0 && node.exitCode() == 0, "the generated TypeScript client needs "
                + "tsc and node (npm install -g typescript): " + tsc.output().strip() + " / " + node.output().strip());
        Files.copy(Path.of("src/test/typescript/generated_client_flow.ts"), client.resolve("generated_client_flow.ts"),
                StandardCopyOption.REPLACE_EXISTING);
        Commands.Run compiled = Commands.run(client, Map.of(), Duration.ofMinutes(2), List.of("tsc", "--target",
                "es2020", "--module", "commonjs", "--lib", "es2020,dom", "--strict", "--skipLibCheck", "--outDir",
                "out", "generated_client_flow.ts"));
        assertThat(compiled.exitCode()).as("tsc: " + compiled.output()).isZero();
        Commands.Run run = Commands.run(client, Map.of(), Duration.ofMinutes(2), List.of("node",
                "out/generated_client_flow.js", "http://localhost:" + port, ADMIN_KEY));
        System.out.println("generated TypeScript client (tsc " + compiled.elapsed().toMillis() + " ms, run "
                + run.elapsed().toMillis() + " ms):\n" + run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("generated typescript client: OK");
    }

    /** The generated client's directory; absent (the test run without the build's generation): skipped. */
    private static Path generated(String language) {
        Path dir = GENERATED.resolve(language);
        Assumptions.assumeTrue(Files.isDirectory(dir), dir + " is missing: openapi-generator writes it in the "
                + "build's generate-test-sources phase (./mvnw test; not with -Dcodegen.skip=true)");
        return dir;
    }
}
