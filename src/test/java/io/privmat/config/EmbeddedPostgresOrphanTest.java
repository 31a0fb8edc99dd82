package io.privmat.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.Patience;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

/**
 * A persistent data directory (the dev profile's .privmat-data) after a kill -9: the killed JVM's
 * PostgreSQL keeps running and holds the directory. The next start stops that orphan first
 * ({@link EmbeddedPostgresServer#stopOrphan}) — but never a server whose JVM is still running.
 */
class EmbeddedPostgresOrphanTest {

    private static long postmasterPid(Path dataDir) throws Exception {
        return Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip());
    }

    @Test
    void theNextStartStopsThePostgresAKilledRunLeftButNotALiveOnes() throws Exception {
        Path dataDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "orphan-pg");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), OrphanPostgresMain.class.getName(), dataDir.toString())
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            long deadline = Patience.deadline(Duration.ofSeconds(60));
            String line;
            while ((line = out.readLine()) != null && !line.equals("ready") && System.nanoTime() < deadline) {
                // zonky's own log lines
            }
            assertThat(line).as("the child's PostgreSQL started").isEqualTo("ready");
            long pid = postmasterPid(dataDir);

            // Its JVM is alive (it holds zonky's lock): not an orphan, left alone.
            assertThat(EmbeddedPostgresServer.stopOrphan(dataDir)).isEqualTo(-1);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).hasValue(true);

            child.destroyForcibly(); // kill -9: no shutdown hook, the postmaster lives on
            assertThat(child.waitFor(Patience.millis(30_000), TimeUnit.MILLISECONDS)).isTrue();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("an orphan").hasValue(true);

            assertThat(EmbeddedPostgresServer.stopOrphan(dataDir)).isEqualTo(pid);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            // The directory starts again, with what it held.
            try (EmbeddedPostgres again = EmbeddedPostgres.builder().setDataDirectory(dataDir)
                    .setCleanDataDirectory(false).start();
                    Connection c = again.getPostgresDatabase().getConnection();
                    ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
            assertThat(EmbeddedPostgresServer.stopOrphan(dataDir)).as("nothing left to stop").isEqualTo(-1);
        } finally {
            child.destroyForcibly();
            if (Files.exists(dataDir.resolve("postmaster.pid"))) {
                ProcessHandle.of(postmasterPid(dataDir)).ifPresent(ProcessHandle::destroy);
            }
            FileSystemUtils.deleteRecursively(dataDir);
        }
    }
}
