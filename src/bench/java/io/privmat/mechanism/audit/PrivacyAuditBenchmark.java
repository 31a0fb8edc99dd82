package io.privmat.mechanism.audit;

import io.privmat.mechanism.audit.AuditCases.AuditCase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The long audit: ten times the CI sample counts, other seeds. Run:
 * {@code ./mvnw test -Pbenchmark -Dtest=PrivacyAuditBenchmark}; prints and writes
 * target/benchmarks/privacy-audit.md (the table in docs/privacy-audit.md).
 */
@Tag("benchmark")
class PrivacyAuditBenchmark {

    @Test
    void tenfoldSamples() throws Exception {
        StringBuilder table = new StringBuilder(
                "| mechanism | relation | claimed ε | δ | ε lower bound | samples per side | mutant: ε lower bound |\n"
                        + "|---|---|---|---|---|---|---|\n");
        for (AuditCase c : AuditCases.all()) {
            String line = PrivacyAuditTest.run(c, 10, 7_000_001L).markdown();
            System.out.println(line);
            table.append(line).append('\n');
        }
        Path out = Path.of("target", "benchmarks", "privacy-audit.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table);
    }
}
