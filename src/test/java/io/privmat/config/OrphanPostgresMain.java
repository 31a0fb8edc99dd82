package io.privmat.config;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;

/**
 * Run in its own JVM by {@link EmbeddedPostgresOrphanTest}: starts an embedded PostgreSQL on the
 * data directory given, as the service does (no zonky shutdown hook), says so, and waits to be killed.
 */
public final class OrphanPostgresMain {

    private OrphanPostgresMain() {}

    public static void main(String[] args) throws Exception {
        EmbeddedPostgres.builder().setDataDirectory(Path.of(args[0])).setCleanDataDirectory(false)
                .setRegisterShutdownHook(false).start();
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
