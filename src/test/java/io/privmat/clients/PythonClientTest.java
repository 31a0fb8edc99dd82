package io.privmat.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.Python;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Python client (clients/python): its generated layer equals a regeneration from the contract
 * this service serves, its version follows the service's, and its unit and live tests pass against
 * this service (python3 -m unittest, with PRIVMAT_URL and PRIVMAT_ADMIN_KEY).
 */
class PythonClientTest extends ApiTest {

    private static final Path CLIENT = Path.of("clients", "python");

    @BeforeEach
    void python() {
        Python.assumeAvailable();
    }

    @Test
    void generatedModelsAreInSyncWithTheServedContract() throws Exception {
        Response spec = get("/v3/api-docs");
        assertThat(spec.status()).isEqualTo(200);
        Path json = Files.createTempFile("openapi-", ".json");
        try {
            Files.write(json, spec.body());
            Python.Run check = Python.run(CLIENT, Map.of(), Duration.ofSeconds(60), "tools/generate.py",
                    json.toAbsolutePath().toString(), "--check");
            assertThat(check.exitCode()).as("clients/python/privmat/_generated.py is stale; regenerate it with "
                    + "python3 tools/generate.py ../../openapi.yaml\n" + check.output()).isZero();
        } finally {
            Files.deleteIfExists(json);
        }
    }

    @Test
    void versionFollowsTheService() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<artifactId>privmat</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertThat(m.find()).isTrue();
        String expected = m.group(1).replace("-SNAPSHOT", ".dev0");
        String pyproject = Files.readString(CLIENT.resolve("pyproject.toml"), StandardCharsets.UTF_8);
        String init = Files.readString(CLIENT.resolve("privmat/__init__.py"), StandardCharsets.UTF_8);
        assertThat(pyproject).contains("version = \"" + expected + "\"");
        assertThat(init).contains("__version__ = \"" + expected + "\"");
    }

    @Test
    void unitAndLiveTestsPassAgainstThisService() {
        Python.Run run = Python.run(CLIENT, Map.of("PRIVMAT_URL", "http://localhost:" + port,
                "PRIVMAT_ADMIN_KEY", ADMIN_KEY), Duration.ofMinutes(3), "-m", "unittest", "discover", "-s",
                "tests", "-v");
        System.out.println("python3 -m unittest (clients/python) in " + run.elapsed().toMillis() + " ms:\n"
                + run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).as("the live tests ran, not skipped").contains("LiveTest").doesNotContain(
                "skipped 'set PRIVMAT_URL");
    }
}
