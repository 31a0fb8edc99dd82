package io.privmat.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.privmat.privacy.Decimals;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Gauges read from the database every {@code privmat.metrics.refresh} (default 15 s), so they are the
 * same on every replica: jobs by state, kind and mechanism ({@code privmat_jobs}), and per dataset and
 * budget track the cap, the amount spent (committed plus reserved) and what remains
 * ({@code privmat_budget_*}), for the {@code privmat.metrics.max-datasets} most recently created datasets
 * (default 1000, bounding the series count). Budgets are public values (costs follow from public
 * parameters only); dataset ids, not names, are the tags.
 */
@Component
public class StateGauges implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StateGauges.class);
    private static final String[] TRACKS = {"rho", "epsilon", "delta"};

    private final JdbcTemplate jdbc;
    private final Duration refresh;
    private final int maxDatasets;
    private final MultiGauge jobs;
    private final MultiGauge cap;
    private final MultiGauge spent;
    private final MultiGauge remaining;
    private volatile ScheduledExecutorService scheduler;

    public StateGauges(JdbcTemplate jdbc, MeterRegistry registry,
            @Value("${privmat.metrics.refresh:15s}") Duration refresh,
            @Value("${privmat.metrics.max-datasets:1000}") int maxDatasets) {
        this.jdbc = jdbc;
        this.refresh = refresh;
        this.maxDatasets = maxDatasets;
        this.jobs = MultiGauge.builder("privmat.jobs").description("Jobs by state, kind and mechanism")
                .register(registry);
        this.cap = MultiGauge.builder("privmat.budget.cap").description("A dataset's budget cap per track")
                .register(registry);
        this.spent = MultiGauge.builder("privmat.budget.spent")
                .description("A dataset's budget spent per track (committed plus reserved)").register(registry);
        this.remaining = MultiGauge.builder("privmat.budget.remaining")
                .description("A dataset's budget remaining per track").register(registry);
    }

    /** Reads the gauges' values now (also called on schedule). */
    public void refresh() {
        List<MultiGauge.Row<?>> jobRows = new ArrayList<>();
        jdbc.query("SELECT state, kind, mechanism, count(*) AS n FROM job GROUP BY state, kind, mechanism", rs -> {
            jobRows.add(MultiGauge.Row.of(Tags.of("state", rs.getString("state"), "kind", rs.getString("kind"),
                    "mechanism", rs.getString("mechanism")), rs.getLong("n")));
        });
        List<MultiGauge.Row<?>> caps = new ArrayList<>();
        List<MultiGauge.Row<?>> spents = new ArrayList<>();
        List<MultiGauge.Row<?>> remainings = new ArrayList<>();
        jdbc.query("SELECT dataset_id, accounting, rho_cap, epsilon_cap, delta_cap, rho_committed + rho_reserved AS rho, "
                + "epsilon_committed + epsilon_reserved AS epsilon, delta_committed + delta_reserved AS delta "
                + "FROM budget_account ORDER BY created_at DESC LIMIT ?", rs -> {
                    for (String track : TRACKS) {
                        BigDecimal c = rs.getBigDecimal(track + "_cap");
                        if (c == null || c.signum() == 0) {
                            continue; // a track the dataset's accounting does not use
                        }
                        BigDecimal s = rs.getBigDecimal(track);
                        Tags tags = Tags.of("dataset", rs.getString("dataset_id"), "track", track,
                                "accounting", rs.getString("accounting"));
                        // Rounded as in the API (io.privmat.api.JsonNumbers): spent up, caps and remaining down.
                        caps.add(MultiGauge.Row.of(tags, Decimals.toDoubleDown(c)));
                        spents.add(MultiGauge.Row.of(tags, Decimals.toDoubleUp(s)));
                        remainings.add(MultiGauge.Row.of(tags,
                                Decimals.toDoubleDown(c.subtract(s).max(BigDecimal.ZERO))));
                    }
                }, maxDatasets);
        jobs.register(jobRows, true);
        cap.register(caps, true);
        spent.register(spents, true);
        remaining.register(remainings, true);
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // Keep the last values; the database may be restarting (readiness reports it).
            log.debug("metrics refresh failed: {}", e.getClass().getName());
        }
    }

    @Override
    public void start() {
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "privmat-metrics");
            t.setDaemon(true);
            return t;
        });
        s.scheduleWithFixedDelay(this::refreshQuietly, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
        scheduler = s;
    }

    @Override
    public void stop() {
        ScheduledExecutorService s = scheduler;
        if (s != null) {
            s.shutdownNow();
        }
        scheduler = null;
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }
}
