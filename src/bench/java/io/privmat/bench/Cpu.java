package io.privmat.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.springframework.jdbc.core.JdbcTemplate;

/** CPU time used so far by this JVM and by the embedded PostgreSQL server (Linux /proc), for benchmarks. */
final class Cpu {

    /** Linux's USER_HZ: /proc/[pid]/stat counts CPU time in ticks of 10 ms. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private Cpu() {
    }

    static long jvmNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * The postmaster's own and reaped children's CPU time plus that of its live children (backends,
     * background writer, WAL writer, ...), found from a backend of the given connection pool.
     */
    static long postgresNanos(JdbcTemplate jdbc) {
        long backend = jdbc.queryForObject("SELECT pg_backend_pid()", Long.class);
        long postmaster = field(stat(backend), 4);
        long ticks = 0;
        String[] own = stat(postmaster);
        for (int f : new int[] {14, 15, 16, 17}) {
            ticks += field(own, f);
        }
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String[] child = stat(Long.parseLong(name));
                if (child != null && field(child, 4) == postmaster) {
                    ticks += field(child, 14) + field(child, 15);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return ticks * NANOS_PER_TICK;
    }

    /** The fields of /proc/[pid]/stat after the command name (field 3 onwards, 1-based numbering). */
    private static String[] stat(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return s.substring(s.lastIndexOf(')') + 2).split(" ");
        } catch (IOException e) {
            return null;
        }
    }

    private static long field(String[] afterName, int field) {
        return Long.parseLong(afterName[field - 3]);
    }
}
