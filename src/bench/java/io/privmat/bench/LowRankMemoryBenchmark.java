package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.FashionMnist;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Memory of HARDT_ROTH and RANDOMIZED_RESPONSE (k = 10, ℓ = 20) on Fashion-MNIST 60 000 × 784 held
 * as 4 MiB chunks, each release in a child JVM ({@link LowRankMemoryProbe}): the bytes the release
 * allocates, the largest heap live after a collection, the heap peak (garbage included) and the peak
 * RSS, all beyond the loaded data, against the data size and the bound (m + d)(k + p)·8 bytes; then
 * the same release in a heap of the data plus {@code privmat.probe.slackMb} (default 48) MiB, which
 * completes only if nothing much beyond the data is live at once. docs/benchmarks.md, "Low-rank
 * memory"; {@code -Dprivmat.probe.mechanisms=HARDT_ROTH} runs one mechanism.
 */
@Tag("benchmark")
class LowRankMemoryBenchmark {

    private static final double MIB = 1 << 20;

    @Test
    void hardtRothAndRandomizedResponseOnFashionMnist() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available());
        long m = LowRankMemoryProbe.M;
        long d = LowRankMemoryProbe.D;
        long data = m * d * 8;
        long bound = (m + d) * (LowRankMemoryProbe.K + LowRankMemoryProbe.OVERSAMPLING) * 8;
        int slack = Integer.getInteger("privmat.probe.slackMb", 48);
        long tightMb = (long) Math.ceil(data / MIB) + slack;
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nlow-rank memory, load %.1f: data %.1f MiB, "
                + "bound (m + d)(k + p)·8 = %.1f MiB; beyond the loaded data:%n%n| mechanism | time | allocated | live "
                + "max after GC | heap peak (incl. garbage) | RSS peak | in -Xmx%dm (data + %d MiB) | s₁ | digest of v |%n"
                + "|---|---|---|---|---|---|---|---|---|%n", load(), data / MIB, bound / MIB, tightMb, slack));
        for (String mechanism : System.getProperty("privmat.probe.mechanisms", "HARDT_ROTH,RANDOMIZED_RESPONSE")
                .split(",")) {
            Map<String, String> big = probe(mechanism, "2g");
            Map<String, String> tight = probe(mechanism, tightMb + "m");
            assertThat(big.get("exit")).as(big.toString()).isEqualTo("0");
            long base = Long.parseLong(big.get("heapBase"));
            out.append(String.format(Locale.ROOT, "| %s | %s s | %.0f MiB | %.1f MiB (%.1f× bound) | %.0f MiB | %.0f MiB | "
                    + "%s | %s | %s |%n", mechanism, big.get("seconds"), mib(big, "allocated", 0),
                    mib(big, "liveMax", base), (Long.parseLong(big.get("liveMax")) - base) / (double) bound,
                    mib(big, "heapPeak", base), mib(big, "rssPeak", Long.parseLong(big.get("rssBase"))),
                    "0".equals(tight.get("exit")) ? "completes (" + tight.get("seconds") + " s)" : "fails: "
                            + tight.getOrDefault("error", "exit " + tight.get("exit")), big.get("s0"), big.get("digest")));
        }
        System.out.println(out);
    }

    private static double mib(Map<String, String> probe, String key, long base) {
        return (Long.parseLong(probe.get(key)) - base) / MIB;
    }

    private static double load() throws IOException {
        return Double.parseDouble(java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    }

    /** The probe's printed key=value pairs, its exit code, and the first error line if any. */
    static Map<String, String> probe(String mechanism, String xmx) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx" + xmx, "-XX:+UseG1GC", "-cp",
                System.getProperty("java.class.path"), LowRankMemoryProbe.class.getName(), mechanism))
                .redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.MINUTES)).isTrue();
        Map<String, String> values = new HashMap<>();
        values.put("exit", Integer.toString(p.exitValue()));
        for (String line : new String(bytes, StandardCharsets.UTF_8).lines().toList()) {
            if (line.startsWith("probe ")) {
                for (String pair : line.split(" ")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        values.put(pair.substring(0, eq), pair.substring(eq + 1));
                    }
                }
            } else if (line.contains("Error") && !values.containsKey("error")) {
                values.put("error", line.strip().replaceAll(".*(java\\.lang\\.\\w+Error: .*)", "$1"));
            }
        }
        System.out.println(mechanism + " -Xmx" + xmx + ": " + values);
        return values;
    }
}
