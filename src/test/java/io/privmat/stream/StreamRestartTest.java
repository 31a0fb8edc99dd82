package io.privmat.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.PrivmatApplication;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.WindowDefinition;
import io.privmat.mechanism.window.WindowMechanism;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.mechanism.window.WindowStream;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
                "privmat.streams.scheduler-enabled=false", "privmat.bootstrap-admin-key=" + ADMIN,
                "privmat.security.requests-per-second=1000000", "privmat.security.burst=1000000").run();
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
        Map<String, Object> spec = JSON.readerFor(LinkedHashMap.class).readValue(jdbc().queryForObject(
                "SELECT spec::text FROM subscription WHERE id = ?", String.class, id));
        WindowMechanism m = WindowDefinition.mechanism(MechanismCatalog.standard().rebuild(spec).spec());
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
        Instant start = Instant.parse(ok(send(owner, "GET", "/v1/datasets/" + dataset, null, null), 200)
                .at("/stream/startsAt").asString());
        String subscription = subscribe(dataset, "{\"kind\":\"SKETCH\",\"mechanism\":\"BLOCKS\",\"rho\":0.1}");
        assertThat(ok(append(dataset, "0.6,0.8,0\n0,0,1\n"), 200).get("releases")).isEmpty();

        CLOCK.advance(Duration.ofSeconds(61));
        streams.closeDueBlocks(CLOCK.instant());
        JsonNode page = ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases", null, null), 200);
        assertThat(page.get("total").asLong()).isEqualTo(1);
        assertThat(Instant.parse(page.at("/items/0/blockEndsAt").asString())).isEqualTo(start.plusSeconds(60));
        assertThat(page.at("/items/0").has("windowRows")).as("a TIME window's row count is private").isFalse();

        // Three more block ends pass with no rows; two schedulers race: each block closes once.
        CLOCK.advance(Duration.ofSeconds(180));
        List<CompletableFuture<Integer>> racers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            racers.add(CompletableFuture.supplyAsync(() -> streams.closeDueBlocks(CLOCK.instant())));
        }
        int closed = 0;
        for (CompletableFuture<Integer> f : racers) {
            closed += f.get();
        }
        assertThat(closed).isEqualTo(3);
        assertThat(ok(send(owner, "GET", "/v1/subscriptions/" + subscription + "/releases", null, null), 200)
                .get("total").asLong()).isEqualTo(4);
        assertThat(streams.closeDueBlocks(CLOCK.instant())).isZero();

        // A batch whose event time lies in a closed block is refused; one in a later block closes the
        // blocks before it first.
        JsonNode late = send(owner, "POST", "/v1/datasets/" + dataset + "/rows?eventTime=" + start.plusSeconds(90),
                "text/csv", "0,1,0\n");
        assertThat(late.get("httpStatus").asInt()).isEqualTo(409);
        assertThat(late.get("type").asString()).endsWith("/event-time-out-of-order");
        CLOCK.advance(Duration.ofSeconds(120));
        JsonNode ahead = ok(send(owner, "POST", "/v1/datasets/" + dataset + "/rows", "text/csv", "0,1,0\n"), 200);
        assertThat(ahead.get("releases")).hasSize(2);
        // Past the horizon (8 blocks): the subscription finishes and appends are refused.
        CLOCK.advance(Duration.ofSeconds(600));
        streams.closeDueBlocks(CLOCK.instant());
        assertThat(ok(send(owner, "GET", "/v1/subscriptions/" + subscription, null, null), 200).get("state").asString())
                .isEqualTo("FINISHED");
        assertThat(append(dataset, "0,1,0\n").get("type").asString()).endsWith("/stream-horizon-reached");
        assertThat(jdbc().queryForObject("SELECT count(*) FROM subscription_release WHERE subscription_id = ?",
                Long.class, UUID.fromString(subscription))).isEqualTo(8);
    }
}
