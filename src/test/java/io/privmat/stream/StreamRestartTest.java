package io.privmat.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.PrivmatApplication;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.window.WindowDefinition;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowStream;
import io.privmat.plan.PlanDocuments;
import io.privmat.stream.jdbc.StreamRepository;
import io.privmat.support.MutableClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stream survives a restart: a new application context on the same database resumes from the
 * persisted open block and slots (no row is re-read: none is stored) and releases the next block
 * exactly once, bit-identical to what an uninterrupted stream releases. And TIME blocks close at
 * their public ends — empty ones too — exactly once when two schedulers race. Its own database; no
 * background workers or scheduler (the test drives them); a clock moved by hand.
 */
class StreamRestartTest {

    static final String ADMIN = "pm_stream_restart_admin_key_0123456789";
    static final MutableClock CLOCK = new MutableClock();
    /** privmat.streams.release-delay here: a TIME block's releases are shown D after its end. */
    static final Duration DELAY = Duration.ofSeconds(20);
    static final JsonMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static ConfigurableApplicationContext context;
    static String owner;

    @Configuration(proxyBeanMethods = false)
    static class Clocks {
        @Bean
        @Primary
        MutableClock mutableClock() {
            return CLOCK;
        }
    }

    /**
     * Kept across the restart: the embedded server stops (and a temporary data directory goes) when
     * the last context using it closes, which here is the one being restarted.
     */
    static final java.nio.file.Path DATA = dataDirectory();

    static java.nio.file.Path dataDirectory() {
        try {
            return java.nio.file.Files.createTempDirectory("privmat-stream-restart");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(PrivmatApplication.class, Clocks.class).properties(
                "server.port=0", "privmat.embedded-postgres.database=stream_restart", "privmat.jobs.enabled=false",
                "privmat.embedded-postgres.data-dir=" + DATA,
                "privmat.streams.scheduler-enabled=false", "privmat.streams.release-delay=" + DELAY.toSeconds() + "s",
                "privmat.streams.lock-timeout=2s", "privmat.bootstrap-admin-key=" + ADMIN,
                "privmat.security.requests-per-second=1000000", "privmat.security.burst=1000000").run("--server.port=0");
    }

    static synchronized ConfigurableApplicationContext context() {
        if (context == null) {
            context = start();
        }
        if (owner == null) {
            owner = send(ADMIN, "POST", "/v1/api-keys", "application/json",
                    "{\"name\":\"o\",\"subject\":\"stream-owner\",\"role\":\"OWNER\"}").get("key").asString();
        }
        return context;
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
    }

    static JsonNode send(String key, String method, String path, String contentType, String body) {
        int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Bearer " + key).timeout(Duration.ofMinutes(2));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body,
                    StandardCharsets.UTF_8));
        }
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
            ((tools.jackson.databind.node.ObjectNode) json).put("httpStatus", r.statusCode());
            return json;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode ok(JsonNode response, int status) {
        assertThat(response.get("httpStatus").asInt()).as(response.toString()).isEqualTo(status);
        return response;
    }

    static String stream(String declaration) {
        return ok(send(owner, "POST", "/v1/datasets", "application/json", "{\"name\":\"s\",\"kind\":\"STREAM\","
                + "\"rowNormBound\":1,\"neighbouring\":\"REPLACE_ONE\",\"stream\":" + declaration + ",\"budget\":"
                + "{\"epsilon\":10,\"delta\":1e-6}}"), 201).get("id").asString();
    }

    static String subscribe(String dataset, String body) {
        return ok(send(owner, "POST", "/v1/datasets/" + dataset + "/subscriptions", "application/json", body), 201)
                .get("id").asString();
    }

    static JsonNode append(String dataset, String csv) {
        return send(owner, "POST", "/v1/datasets/" + dataset + "/rows", "text/csv", csv);
    }

    static JdbcTemplate jdbc() {
        return context.getBean(JdbcTemplate.class);
    }

    @Test
    void aRestartedServiceResumesAndReleasesTheNextBlockExactlyOnce() {
        context();
        String dataset = stream("{\"columns\":3,\"blockRows\":2,\"windowBlocks\":2,\"horizonBlocks\":20}");
        String subscription = subscribe(dataset, "{\"kind\":\"COVARIANCE\",\"mechanism\":\"FACTORIZATION\",\"rho\":0.1}");
        String[] rows = {"0.6,0.8,0", "0,0.6,-0.8", "0.5,0.5,0.5", "-0.1,0.9,0.2"};
        assertThat(ok(append(dataset, rows[0] + "\n" + rows[1] + "\n" + rows[2] + "\n"), 200).get("releases")).hasSize(1);

        context.close();
        context = start(); // a new application context on the same database: nothing in memory survives

        JsonNode second = ok(append(dataset, rows[3] + "\n"), 200);
        assertThat(second.get("releases")).hasSize(1);
        assertThat(second.at("/releases/0/block").asLong()).isEqualTo(1);
        UUID id = UUID.fromString(subscription);
        assertThat(jdbc().queryForList("SELECT block FROM subscription_release WHERE subscription_id = ? ORDER BY block",
                Long.class, id)).containsExactly(0L, 1L);
        assertThat(jdbc().queryForObject("SELECT count(*) FROM release r JOIN subscription s ON s.job_id = r.job_id "
                + "WHERE s.id = ?", Long.class, id)).isEqualTo(2);

        // What an uninterrupted stream with the same key releases, computed from the rows directly.
        String spec = jdbc().queryForObject("SELECT spec::text FROM subscription WHERE id = ?", String.class, id);
        WindowMechanism m = WindowDefinition.mechanism(MechanismCatalog.standard(),
                new PlanDocuments(MechanismCatalog.standard()).rebuild(spec).spec());
        byte[] key = jdbc().queryForObject("SELECT stream_key FROM subscription WHERE id = ?", byte[].class, id);
        double[] all = new double[12];
        for (int r = 0; r < 4; r++) {
            String[] v = rows[r].split(",");
            for (int c = 0; c < 3; c++) {
                all[r * 3 + c] = Double.parseDouble(v[c]);
            }
        }
        List<WindowRelease> expected = WindowStream.start(m, key).appendRows(all, 4).releases();
        for (int block = 0; block < 2; block++) {
            UUID release = jdbc().queryForObject("SELECT release_id FROM subscription_release WHERE subscription_id = ? "
                    + "AND block = ?", UUID.class, id, (long) block);
            double[] stored = StreamRepository.doubles(jdbc().queryForObject("SELECT payload FROM release WHERE id = ?",
                    byte[].class, release));
            assertThat(stored).as("block %d, bit for bit", block).containsExactly(expected.get(block).window());
        }
    }

    @Test
    void timeBlocksCloseAtTheirPublicEndsExactlyOnce() throws Exception {
        context();
        StreamService streams = context.getBean(StreamService.class);
        String dataset = stream("{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,\"horizonBlocks\":8}");
        Instant start = startOf(dataset);
        String subscription = subscribe(dataset, "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.1}");
        assertThat(ok(append(dataset, "0.6,0.8,0\n0,0,1\n"), 200).get("releases")).isEmpty();

        CLOCK.advance(Duration.ofSeconds(61).plus(DELAY));
        streams.closeDueBlocks(CLOCK.instant());
        JsonNode page = ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases", null, null), 200);
        assertThat(page.get("total").asLong()).isEqualTo(1);
        assertThat(Instant.parse(page.at("/items/0/blockEndsAt").asString())).isEqualTo(start.plusSeconds(60));
        assertThat(Instant.parse(page.at("/items/0/publishedAt").asString())).isEqualTo(start.plusSeconds(60).plus(DELAY));
        assertThat(page.at("/items/0").has("windowRows")).as("a TIME window's row count is private").isFalse();

        // Three more block ends pass with no rows; two schedulers race: each block closes once.
        CLOCK.advance(Duration.ofSeconds(180));
        List<CompletableFuture<Integer>> racers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            racers.add(CompletableFuture.supplyAsync(() -> streams.closeDueBlocks(CLOCK.instant())));
        }
        for (CompletableFuture<Integer> f : racers) {
            f.get();
        }
        assertThat(completed(dataset)).isEqualTo(4);
        assertThat(ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases", null, null), 200)
                .get("total").asLong()).isEqualTo(4);
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(4);

        // A batch whose event time lies in a closed block is refused; one in a later block releases
        // nothing: only the scheduler closes the blocks before it.
        JsonNode late = send(owner, "POST", "/v1/datasets/" + dataset + "/rows?eventTime=" + start.plusSeconds(90),
                "text/csv", "0,1,0\n");
        assertThat(late.get("httpStatus").asInt()).isEqualTo(409);
        assertThat(late.get("type").asString()).endsWith("/event-time-out-of-order");
        CLOCK.advance(Duration.ofSeconds(120));
        JsonNode ahead = ok(send(owner, "POST", "/v1/datasets/" + dataset + "/rows", "text/csv", "0,1,0\n"), 200);
        assertThat(ahead.get("releases")).isEmpty();
        assertThat(ahead.get("completedBlocks").asLong()).isEqualTo(4);
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(6);
        // Past the horizon (8 blocks): the subscription finishes — shown once its last release is —
        // and appends are refused.
        CLOCK.advance(Duration.ofSeconds(600));
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(ok(send(owner, "GET", "/v1/subscriptions/" + subscription, null, null), 200).get("state").asString())
                .isEqualTo("FINISHED");
        assertThat(append(dataset, "0,1,0\n").get("type").asString()).endsWith("/stream-horizon-reached");
        assertThat(jdbc().queryForObject("SELECT count(*) FROM subscription_release WHERE subscription_id = ?",
                Long.class, UUID.fromString(subscription))).isEqualTo(8);
    }

    /** The stream's closed blocks (other tests' streams close in the same ticks: count per stream). */
    static long completed(String dataset) {
        return jdbc().queryForObject("SELECT completed_blocks FROM stream WHERE dataset_id = ?", Long.class,
                UUID.fromString(dataset));
    }

    /** Deletes a test's stream, so that later ticks of other tests have less to close. */
    static void drop(String dataset) {
        ok(send(owner, "DELETE", "/v1/datasets/" + dataset, null, null), 204);
    }

    /** A new TIME stream (d = 3, blocks of 60 s, w = 2, 100 blocks) starting now. */
    static String timeStream() {
        context();
        return stream("{\"columns\":3,\"blockSeconds\":60,\"windowBlocks\":2,\"horizonBlocks\":100}");
    }

    static Instant startOf(String dataset) {
        return Instant.parse(ok(send(owner, "GET", "/v1/datasets/" + dataset, null, null), 200).at("/stream/startsAt")
                .asString());
    }

    static JsonNode subscriptionView(String subscription) {
        return ok(send(owner, "GET", "/v1/subscriptions/" + subscription, null, null), 200);
    }

    static long shownReleases(String subscription) {
        return ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases", null, null), 200).get("total")
                .asLong();
    }

    /** Moves the clock to {@code at} (the clock only moves forward). */
    static void clockAt(Instant at) {
        assertThat(at).isAfterOrEqualTo(CLOCK.instant());
        CLOCK.advance(Duration.between(CLOCK.instant(), at));
    }

    /**
     * Review F4: a TIME block's releases are shown at start + (i + 1)·s + D, whatever the appends.
     * An append after block 0's end (before the scheduler's tick) neither closes nor releases it — its
     * rows go into block 1, the block of their event time — and the release computed at the tick is
     * shown to nobody before its publication time, then to everyone. Both releases are bit for bit
     * those of a stream whose blocks hold exactly the rows of their event times.
     */
    @Test
    void timeReleasesAreShownAtTheirPublicMomentWhateverTheAppends() {
        String dataset = timeStream();
        StreamService streams = context.getBean(StreamService.class);
        Instant start = startOf(dataset);
        String subscription = subscribe(dataset, "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.1}");
        String[] batches = {"0.6,0.8,0\n0,0.6,-0.8\n", "0.5,0.5,0.5\n"};
        ok(append(dataset, batches[0]), 200);

        clockAt(start.plusSeconds(61)); // block 0 has ended; the scheduler has not run
        JsonNode after = ok(append(dataset, batches[1]), 200);
        assertThat(after.get("releases")).as("an append never releases a TIME block").isEmpty();
        assertThat(after.get("completedBlocks").asLong()).as("nor closes one").isZero();
        assertThat(after.get("openRows").asLong()).isEqualTo(3);

        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(1);
        assertThat(subscriptionView(subscription).get("completedBlocks").asLong()).as("computed, not yet shown").isZero();
        assertThat(shownReleases(subscription)).isZero();
        assertThat(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases/0", null, null)
                .get("httpStatus").asInt()).isEqualTo(404);
        clockAt(start.plusSeconds(60).plus(DELAY).minusMillis(1));
        assertThat(subscriptionView(subscription).get("completedBlocks").asLong()).isZero();
        clockAt(start.plusSeconds(60).plus(DELAY));
        assertThat(subscriptionView(subscription).get("completedBlocks").asLong()).isEqualTo(1);
        assertThat(shownReleases(subscription)).isEqualTo(1);

        clockAt(start.plusSeconds(121));
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(2);
        clockAt(start.plusSeconds(120).plus(DELAY));
        assertThat(shownReleases(subscription)).isEqualTo(2);

        UUID id = UUID.fromString(subscription);
        String spec = jdbc().queryForObject("SELECT spec::text FROM subscription WHERE id = ?", String.class, id);
        WindowMechanism m = WindowDefinition.mechanism(MechanismCatalog.standard(),
                new PlanDocuments(MechanismCatalog.standard()).rebuild(spec).spec());
        byte[] key = jdbc().queryForObject("SELECT stream_key FROM subscription WHERE id = ?", byte[].class, id);
        WindowStream expected = WindowStream.start(m, key);
        for (int block = 0; block < 2; block++) {
            double[] rows = java.util.Arrays.stream(batches[block].split("[,\n]")).mapToDouble(Double::parseDouble)
                    .toArray();
            expected.appendRows(rows, rows.length / 3);
            double[] window = expected.closeBlock().window();
            UUID release = jdbc().queryForObject("SELECT release_id FROM subscription_release WHERE subscription_id = ? "
                    + "AND block = ?", UUID.class, id, (long) block);
            assertThat(StreamRepository.doubles(jdbc().queryForObject("SELECT payload FROM release WHERE id = ?",
                    byte[].class, release))).as("block %d holds the rows of its event times", block)
                    .containsExactly(window);
        }
        drop(dataset);
    }

    /**
     * The scheduler does not skip a stream whose lock an append holds (it used to, with SKIP LOCKED,
     * delaying the release to the next tick): it waits for the lock, up to the lock timeout; past
     * it, it leaves the stream to the next tick.
     */
    @Test
    void theSchedulerWaitsForAStreamAnAppendHolds() throws Exception {
        String dataset = timeStream();
        StreamService streams = context.getBean(StreamService.class);
        Instant start = startOf(dataset);
        subscribe(dataset, "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.1}");
        clockAt(start.plusSeconds(61));
        UUID id = UUID.fromString(dataset);

        java.util.concurrent.CountDownLatch locked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Void> holder = holdLock(id, locked, release);
        assertThat(locked.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Integer> tick = CompletableFuture.supplyAsync(() -> streams.closeDueBlocks(CLOCK.instant()));
        Thread.sleep(500);
        assertThat(tick).as("waiting for the lock, not skipping the stream").isNotDone();
        release.countDown();
        holder.get();
        tick.get();
        assertThat(completed(dataset)).isEqualTo(1);

        // Held past privmat.streams.lock-timeout (2 s here): this tick leaves it, the next closes it.
        clockAt(start.plusSeconds(121));
        java.util.concurrent.CountDownLatch locked2 = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release2 = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Void> holder2 = holdLock(id, locked2, release2);
        assertThat(locked2.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(1);
        release2.countDown();
        holder2.get();
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(2);
        drop(dataset);
    }

    /** Takes the stream's row lock in another transaction until {@code release} opens. */
    static CompletableFuture<Void> holdLock(UUID dataset, java.util.concurrent.CountDownLatch locked,
            java.util.concurrent.CountDownLatch release) {
        org.springframework.transaction.support.TransactionTemplate tx = context.getBean(
                org.springframework.transaction.support.TransactionTemplate.class);
        return CompletableFuture.runAsync(() -> tx.executeWithoutResult(status -> {
            jdbc().queryForList("SELECT dataset_id FROM stream WHERE dataset_id = ? FOR UPDATE", dataset);
            locked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    /**
     * A subscription created after a block's end starts with the block the clock is in, not with the
     * stream's counter (which lags the end until the scheduler closes the block).
     */
    @Test
    void aTimeSubscriptionStartsWithTheBlockOfTheClock() {
        String dataset = timeStream();
        StreamService streams = context.getBean(StreamService.class);
        Instant start = startOf(dataset);
        ok(append(dataset, "0.6,0.8,0\n"), 200);
        clockAt(start.plusSeconds(61));
        JsonNode created = ok(send(owner, "POST", "/v1/datasets/" + dataset + "/subscriptions", "application/json",
                "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.1}"), 201);
        assertThat(created.get("firstStreamBlock").asLong()).isEqualTo(1);
        String subscription = created.get("id").asString();
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(1);
        assertThat(jdbc().queryForObject("SELECT count(*) FROM subscription_release WHERE subscription_id = ?",
                Long.class, UUID.fromString(subscription))).as("block 0 is before its start").isZero();
        clockAt(start.plusSeconds(121));
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(2);
        clockAt(start.plusSeconds(120).plus(DELAY));
        JsonNode page = ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases", null, null), 200);
        assertThat(page.get("total").asLong()).isEqualTo(1);
        assertThat(page.at("/items/0/streamBlock").asLong()).isEqualTo(1);
        drop(dataset);
    }

    /**
     * One pending block at most: with block 0 ended and unreleased and block 1 holding rows, a batch
     * for block 2 is a 503 with Retry-After and changes nothing; once the scheduler has run it is taken.
     */
    @Test
    void aBatchForAThirdUnreleasedBlockWaitsForTheScheduler() {
        String dataset = timeStream();
        StreamService streams = context.getBean(StreamService.class);
        Instant start = startOf(dataset);
        ok(append(dataset, "0.6,0.8,0\n"), 200);
        clockAt(start.plusSeconds(61));
        ok(append(dataset, "0,1,0\n"), 200);
        clockAt(start.plusSeconds(121));
        String before = ok(send(owner, "GET", "/v1/datasets/" + dataset, null, null), 200).get("rows").toString();
        JsonNode refused = append(dataset, "0,0,1\n");
        assertThat(refused.get("httpStatus").asInt()).as(refused.toString()).isEqualTo(503);
        assertThat(refused.get("retryAfterSeconds").asLong()).isPositive();
        assertThat(ok(send(owner, "GET", "/v1/datasets/" + dataset, null, null), 200).get("rows").toString())
                .isEqualTo(before);
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(2);
        assertThat(ok(append(dataset, "0,0,1\n"), 200).get("openRows").asLong()).isEqualTo(1);
        drop(dataset);
    }
    /**
     * A TIME block's row count is private and unbounded: a block of 2⁶² rows at the norm bound (its
     * exact Gram written here as an append would leave it) is released by every subscription and the
     * stream goes on — no release step throws on the values read, so no subscription silently stops
     * in a way that depends on them (docs/adr/0011-a-failure-is-an-output.md).
     */
    @Test
    void aHugeTimeBlockIsReleasedAndTheStreamGoesOn() {
        String dataset = timeStream();
        StreamService streams = context.getBean(StreamService.class);
        Instant start = startOf(dataset);
        List<String> subscriptions = List.of(
                subscribe(dataset, "{\"kind\":\"COVARIANCE\",\"mechanism\":\"FACTORIZATION\",\"rho\":0.1}"),
                subscribe(dataset, "{\"kind\":\"PCA\",\"mechanism\":\"DYADIC_TREE\",\"rho\":0.1,\"params\":{\"k\":1}}"),
                subscribe(dataset, "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.1}"));
        double[] packed = new double[6]; // d = 3: the upper triangle of 2⁶²·e₁e₁ᵀ
        packed[0] = 0x1p62;
        jdbc().update("UPDATE stream SET open_block = ?, open_rows = ? WHERE dataset_id = ?",
                StreamRepository.bytes(packed), 1L << 62, UUID.fromString(dataset));
        clockAt(start.plusSeconds(121));
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(completed(dataset)).isEqualTo(2);
        clockAt(start.plusSeconds(120).plus(DELAY));
        for (String subscription : subscriptions) {
            JsonNode view = subscriptionView(subscription);
            assertThat(view.get("state").asString()).isEqualTo("ACTIVE");
            assertThat(view.get("completedBlocks").asLong()).isEqualTo(2);
            JsonNode first = ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases/0", null, null), 200);
            assertThat(first.toString()).doesNotContain("NaN");
        }
        drop(dataset);
    }
}
