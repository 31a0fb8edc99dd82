package io.privmat;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import io.privmat.support.Commands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md runs as written: every {@code bash} block of it that calls the service (those that use
 * {@code $BASE}: the worked session, graphs, histograms and linear queries, ratings and completion,
 * streams, free analytics) is taken from the file itself and run in order, in one bash with
 * {@code set -eo pipefail}, in an empty directory, against this service. Only what README.md reads
 * from the environment is set: PRIVMAT_URL (this service's port) and PRIVMAT_ADMIN_KEY. Each block
 * must finish, and key parts of its answers must appear; no curl example may sit outside them.
 */
class ReadmeTest extends ApiTest {

    private static final Pattern BASH_BLOCK = Pattern.compile("(?ms)^```bash\\n(.*?)^```");
    private static final String DONE = "@@ README block %d done";

    /** Per block, found by a fragment of its source: what its output must contain. */
    private static final Map<String, List<String>> EXPECTED = new LinkedHashMap<>();

    static {
        EXPECTED.put("Idempotency-Key: first-sums", List.of("{\"blas\":{\"source\":",
                "\"status\":\"READY\",\"rows\":3,\"cols\":3,\"nnz\":7,\"clippedRows\":1",
                "\"analyst\":\"bob\"", "\"admissible\":true", "\"sigma\":20.01",
                "\"state\":\"DONE\",\"progress\":1.0", "\"columnSums\": [", "\"accuracy\": {",
                "\"type\":\"RESERVE\"", "\"type\":\"COMMIT\"", "https://privmat.io/problems/budget-exhausted",
                "budget.epsilon must be in (0, 100] but was -1", "empty segment",
                "\"instance\":\"/v1/datasets//budget\""));
        EXPECTED.put("\"vertices\":{\"count\":5000}", List.of("\"nnz\":20000", "\"kind\":\"SKETCH\",\"mechanism\":\"JL\"",
                "\"state\":\"DONE\"", "{\"answers\":[{\"estimate\":", "\"confidence\":0.95"));
        EXPECTED.put("\"kind\":\"HISTOGRAM\"", List.of("\"rows\":3,\"cols\":64,\"nnz\":2"));
        EXPECTED.put("\"mechanism\":\"OPTIMIZED\"", List.of("\"queries\":1360", "\"strategyMethod\":\"OPTIMIZED/",
                "\"status\":\"DONE\"", "HISTOGRAM_ESTIMATE", "\"standardDeviation\":", "\"biased\":false"));
        EXPECTED.put("\"kind\":\"RATINGS\"", List.of("\"nnz\":60000", "\"droppedRatings\":0", "FRANK_WOLFE",
                "COMPLETION_MODEL", "\"code\":\"COMPONENTS_IN_NOISE\"",
                "\"user\":\"alice\",\"index\":0,\"items\":100,\"predictions\":["));
        EXPECTED.put("\"kind\":\"STREAM\"", List.of("\"blockRule\":\"ROW_COUNT\"", "\"admissible\":true",
                "\"completedBlocks\":2,\"openRows\":50", "\"windowRows\":200", "\"covariance\":[[",
                "{\"answers\":[{\"estimate\":", "\"state\":\"CANCELLED\""));
        EXPECTED.put("/regression", List.of("\"intervals\":\"SIMULTANEOUS_BOUND\"", "\"coefficients\":[{\"column\":0"));
    }

    @Test
    void everySessionBlockOfTheReadmeRunsInOrder(@TempDir Path dir) throws IOException {
        for (String tool : List.of("bash", "curl", "python3")) {
            Commands.Run probe = Commands.run(Path.of("."), Map.of(), Duration.ofSeconds(30), List.of(tool, "--version"));
            Assumptions.assumeTrue(probe.exitCode() == 0, "README.md's session needs " + tool + ": " + probe.output());
        }
        List<String> blocks = new ArrayList<>();
        Matcher m = BASH_BLOCK.matcher(Files.readString(Path.of("README.md"), StandardCharsets.UTF_8));
        while (m.find()) {
            String block = m.group(1);
            if (block.contains("$BASE")) {
                blocks.add(block);
            } else {
                assertThat(block).as("a curl example that ReadmeTest does not run (call the service as $BASE/…)")
                        .doesNotContain("curl ");
            }
        }
        EXPECTED.keySet().forEach(fragment -> assertThat(blocks.stream().filter(b -> b.contains(fragment)))
                .as("README.md blocks containing %s", fragment).hasSize(1));

        StringBuilder script = new StringBuilder("set -eo pipefail\n");
        for (int i = 0; i < blocks.size(); i++) {
            script.append(blocks.get(i)).append("\nprintf '\\n").append(DONE.formatted(i)).append(" at %s\\n' \"$(date +%s%3N)\"\n");
        }
        Files.writeString(dir.resolve("readme.sh"), script, StandardCharsets.UTF_8);
        long started = System.currentTimeMillis();
        Commands.Run run = Commands.run(dir, Map.of("PRIVMAT_URL", "http://localhost:" + port, "PRIVMAT_ADMIN_KEY",
                ADMIN_KEY), Duration.ofMinutes(2), List.of("bash", "readme.sh"));
        String out = run.output();
        List<Long> ends = Pattern.compile("@@ README block \\d+ done at (\\d+)").matcher(out).results()
                .map(r -> Long.parseLong(r.group(1))).toList();
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < ends.size(); i++) {
            millis.add(ends.get(i) - (i == 0 ? started : ends.get(i - 1)));
        }
        System.out.println("README.md's " + blocks.size() + " session blocks in " + run.elapsed().toMillis()
                + " ms; each block's ms: " + millis);

        int start = 0;
        for (int i = 0; i < blocks.size(); i++) {
            String marker = DONE.formatted(i);
            int end = out.indexOf(marker, start);
            String shown = out.substring(start, end < 0 ? out.length() : end);
            assertThat(end).as("README.md block %d did not finish (exit %d):%n%s%n--- its output:%n%s", i,
                    run.exitCode(), blocks.get(i), tail(shown)).isNotNegative();
            for (var expected : EXPECTED.entrySet()) {
                if (blocks.get(i).contains(expected.getKey())) {
                    for (String part : expected.getValue()) {
                        assertThat(shown).as("output of README.md block %d:%n%s", i, tail(shown)).contains(part);
                    }
                }
            }
            start = end + marker.length();
        }
        assertThat(run.exitCode()).as(tail(out)).isZero();
        // The files the session writes: results as .npy, the owner's predictions as CSV.
        assertThat(Files.readAllBytes(dir.resolve("sums.npy"))).startsWith((byte) 0x93, (byte) 'N', (byte) 'U');
        assertThat(Files.readAllBytes(dir.resolve("answers.npy"))).startsWith((byte) 0x93, (byte) 'N', (byte) 'U');
        try (var lines = Files.lines(dir.resolve("predictions.csv"))) {
            assertThat(lines.count()).isEqualTo(2001); // a header and one row per user
        }
    }

    private static String tail(String text) {
        return text.length() <= 4000 ? text : "…" + text.substring(text.length() - 4000);
    }
}
