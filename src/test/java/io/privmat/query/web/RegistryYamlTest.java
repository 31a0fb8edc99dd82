package io.privmat.query.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.ledger.TrackView;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The registry YAML of a transparency record, byte for byte (what the dashboard and registry tools read). */
class RegistryYamlTest {

    private static final Tracks SPENT = new Tracks(new BigDecimal("0.0125"), new BigDecimal("0.75"),
            new BigDecimal("1e-7"));
    private static final Tracks CAP = new Tracks(new BigDecimal("0.5"), new BigDecimal("3"), new BigDecimal("1e-6"));

    static TransparencyController.TransparencyRecord record(AccountingMode mode, @org.jspecify.annotations.Nullable Long next,
            int releases) {
        TransparencyController.Totals totals = new TransparencyController.Totals(mode.name(),
                new TransparencyController.Guarantee(mode == AccountingMode.ZCDP ? null : 3.0, 1e-6),
                TrackView.available(CAP, mode), TrackView.charged(SPENT, mode),
                new TransparencyController.Guarantee(0.7312, mode == AccountingMode.PURE ? null : 1.0e-7),
                TrackView.charged(Tracks.ZERO, mode), TrackView.available(CAP, mode), mode == AccountingMode.ZCDP ? 5e-7 : null, null);
        List<TransparencyController.ReleaseView> views = new java.util.ArrayList<>();
        for (int i = 0; i < releases; i++) {
            views.add(new TransparencyController.ReleaseView(41 + i, new UUID(7, i), i % 2 == 0 ? "one-shot" : "continual",
                    i % 2 == 0 ? "PCA" : "SUBSCRIPTION", i % 2 == 0 ? "ANALYZE_GAUSS" : "FACTORIZATION", "{}",
                    TrackView.charged(SPENT, mode), new TransparencyController.Guarantee(0.25 * (i + 1), 1e-8), null,
                    Instant.parse("2026-11-27T10:15:30.123456Z").plusSeconds(i), i == 0 ? "owner-a" : "analyst: b", null));
        }
        return new TransparencyController.TransparencyRecord(new UUID(1, 2), "sales 2026: Q3", "MATRIX", "row",
                "REPLACE_ONE", totals, views, 12, next);
    }

    /**
     * Every accounting mode (its tracks), absent values (null epsilon, delta, next), an empty page, and
     * strings SnakeYAML must quote; registry-yaml.txt was written by the map-built renderer this
     * replaced, so the records render the same bytes.
     */
    @Test
    void theRegistryFieldsRenderAsTheyAlwaysDid() throws Exception {
        StringBuilder out = new StringBuilder();
        for (AccountingMode mode : AccountingMode.values()) {
            out.append("=====").append(mode).append('\n');
            out.append(TransparencyController.registryYaml(record(mode, mode == AccountingMode.BASIC ? 43L : null,
                    mode == AccountingMode.PURE ? 0 : 2)));
        }
        try (var in = RegistryYamlTest.class.getResourceAsStream("registry-yaml.txt")) {
            assertThat(out.toString()).isEqualTo(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    static TransparencyController.Totals perPeriod(TransparencyController.Totals t, long periodBlocks) {
        return new TransparencyController.Totals(t.accounting(), t.budget(), t.capacity(), t.spent(), t.spentGuarantee(),
                t.reserved(), t.remaining(), t.deltaConversion(), periodBlocks);
    }

    /** A charge to a period of a budget that renews (docs/accounting.md §13) names its period; others do not. */
    @Test
    void aPeriodicChargeNamesItsPeriod() {
        TransparencyController.TransparencyRecord r = record(AccountingMode.ZCDP, null, 2);
        List<TransparencyController.ReleaseView> views = new java.util.ArrayList<>(r.releases());
        TransparencyController.ReleaseView v = views.get(1);
        views.set(1, new TransparencyController.ReleaseView(v.entry(), v.jobId(), v.releaseType(), v.kind(), v.mechanism(),
                v.loss(), v.charged(), v.guarantee(), v.expectedError(), v.admittedAt(), v.analyst(), 3L));
        String yaml = TransparencyController.registryYaml(new TransparencyController.TransparencyRecord(r.datasetId(),
                r.name(), r.kind(), r.privacyUnit(), r.relation(), perPeriod(r.totals(), 24L), views, r.total(), r.next()));
        assertThat(yaml).containsOnlyOnce("period: 3").doesNotContain("period: null").containsOnlyOnce("periodBlocks: 24");
        assertThat(TransparencyController.registryYaml(r)).doesNotContain("period");
    }
}
