package io.privmat.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.Python;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Python client (clients/python): its generated layer equals a regeneration from the contract
 * this service serves, its version follows the service's, its unit and live tests pass against
 * this service (python3 -m unittest, with PRIVMAT_URL and PRIVMAT_ADMIN_KEY), and it installs with
 * pip and no index into a fresh virtual environment (its build backend is in the tree and uses only
 * the standard library) and runs a session from there, with or without numpy.
 */
class PythonClientTest extends ApiTest {

    private static final Path CLIENT = Path.of("clients", "python");

    @Test
    void generatedModelsAreInSyncWithTheServedContract() throws Exception {
        Python.assumeAvailable();
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
        Python.assumeAvailable();
        Python.Run run = Python.run(CLIENT, Map.of("PRIVMAT_URL", "http://localhost:" + port,
                "PRIVMAT_ADMIN_KEY", ADMIN_KEY), Duration.ofMinutes(3), "-m", "unittest", "discover", "-s",
                "tests", "-v");
        System.out.println("python3 -m unittest (clients/python) in " + run.elapsed().toMillis() + " ms:\n"
                + run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).as("the live tests ran, not skipped").contains("LiveTest").doesNotContain(
                "skipped 'set PRIVMAT_URL");
    }

    /**
     * pip install --no-index into a fresh virtual environment: of the source directory into one of
     * its own (no numpy there), and of the sdist the backend builds into one that sees the system's
     * packages (numpy, where installed); then a session with the installed client, run from outside
     * the repository (src/test/python/installed_client_session.py).
     */
    @ParameterizedTest(name = "system site packages: {0}")
    @ValueSource(booleans = {false, true})
    void installsOfflineIntoAFreshVirtualEnvironmentAndRunsASession(boolean systemSitePackages,
            @TempDir Path dir) throws Exception {
        Python.assumePython();
        Path venv = dir.resolve("venv");
        List<String> create = new java.util.ArrayList<>(List.of("-m", "venv"));
        if (systemSitePackages) {
            create.add("--system-site-packages");
        }
        create.add(venv.toString());
        Python.Run made = Python.run(dir, Map.of(), Duration.ofMinutes(2), create.toArray(String[]::new));
        Assumptions.assumeTrue(made.exitCode() == 0, "python3 -m venv is not available (Debian: apt-get install "
                + "python3-venv): " + made.output());
        String python = venv.resolve("bin").resolve("python").toString();
        String source = CLIENT.toAbsolutePath().toString();
        if (systemSitePackages) {
            Python.Run sdist = Python.run(dir, Map.of(), Duration.ofMinutes(1), "-c", "import sys; sys.path.insert(0, "
                    + "sys.argv[1]); import privmat_build; print(privmat_build.build_sdist(sys.argv[2]))",
                    CLIENT.resolve("_backend").toAbsolutePath().toString(), dir.toString());
            assertThat(sdist.exitCode()).as(sdist.output()).isZero();
            source = dir.resolve(sdist.output().strip()).toString();
        }
        // --isolated: no PIP_* variable or pip.conf of this machine (an index, extra wheel directories) counts.
        Python.Run install = Python.run(python, dir, Map.of(), Duration.ofMinutes(3), "-m", "pip", "--isolated",
                "install", "--no-index", "--no-cache-dir", "--disable-pip-version-check", source);
        System.out.println("pip install --no-index " + source + " in " + install.elapsed().toMillis() + " ms:\n"
                + install.output());
        assertThat(install.exitCode()).as(install.output()).isZero();
        assertThat(install.output()).contains("Successfully installed privmat-");
        try (var left = Files.list(CLIENT)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("nothing left in the source tree")
                    .doesNotContain("build", "privmat.egg-info", "dist");
        }

        Path session = Path.of("src", "test", "python", "installed_client_session.py").toAbsolutePath();
        Python.Run run = Python.run(python, dir, Map.of(), Duration.ofMinutes(2), session.toString(),
                "http://localhost:" + port, ADMIN_KEY);
        System.out.println("installed client session in " + run.elapsed().toMillis() + " ms:\n" + run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("from " + venv).contains("installed client: OK");
    }
}
