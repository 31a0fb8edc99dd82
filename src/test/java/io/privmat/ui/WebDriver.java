package io.privmat.ui;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A minimal W3C WebDriver client over HTTP for the dashboard's browser test: it starts chromedriver
 * with headless Chromium and speaks the standard protocol (session, navigate, find, type, click, text,
 * script, screenshot). Written here rather than adding a Selenium dependency: the test needs a dozen
 * commands, and the build stays offline-capable.
 */
final class WebDriver implements AutoCloseable {

    private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final Process driver;
    private final String base;
    private final String session;

    /** Chromium and chromedriver on this machine, if both exist. */
    static Optional<Path[]> locate() {
        Path browser = first("PRIVMAT_CHROMIUM", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
        Path driver = first("PRIVMAT_CHROMEDRIVER", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
        return browser == null || driver == null ? Optional.empty() : Optional.of(new Path[] {browser, driver});
    }

    private static Path first(String env, String... candidates) {
        List<String> all = new ArrayList<>();
        if (System.getenv(env) != null) {
            all.add(System.getenv(env));
        }
        all.addAll(List.of(candidates));
        return all.stream().map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
    }

    WebDriver(Path browser, Path chromedriver, int width, int height) throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        driver = new ProcessBuilder(chromedriver.toString(), "--port=" + port).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        base = "http://127.0.0.1:" + port;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                if (call("GET", "/status", null).path("value").path("ready").asBoolean(false)) {
                    break;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                driver.destroyForcibly();
                throw new IOException("chromedriver did not start");
            }
            Thread.sleep(100);
        }
        Map<String, Object> options = Map.of("binary", browser.toString(), "args", List.of("--headless=new",
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--window-size=" + width + "," + height, "--force-device-scale-factor=1"));
        JsonNode created = call("POST", "/session", Map.of("capabilities", Map.of("alwaysMatch", Map.of(
                "browserName", "chrome", "goog:chromeOptions", options, "goog:loggingPrefs", Map.of("browser", "ALL")))));
        JsonNode value = created.path("value");
        if (!value.has("sessionId")) {
            driver.destroyForcibly();
            throw new IOException("no WebDriver session: " + created);
        }
        session = "/session/" + value.get("sessionId").asString();
    }

    private JsonNode call(String method, String path, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode node = JSON.readTree(r.body());
        if (r.statusCode() >= 400) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return node;
    }

    private JsonNode command(String method, String path, Object body) {
        try {
            return call(method, session + path, body).path("value");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    void open(String url) {
        command("POST", "/url", Map.of("url", url));
    }

    /** The element's id, or empty if there is none now. */
    Optional<String> find(String css) {
        JsonNode found = command("POST", "/elements", Map.of("using", "css selector", "value", css));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0).get(ELEMENT).asString());
    }

    /** Waits up to {@code timeout} for the element. */
    String await(String css, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> e = find(css);
            if (e.isPresent()) {
                return e.get();
            }
            sleep(100);
        }
        throw new AssertionError("no element " + css + " within " + timeout + "; page text: " + text("body"));
    }

    /** Waits until {@code condition} holds. */
    void until(String what, Duration timeout, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Boolean.TRUE.equals(condition.get())) {
                return;
            }
            sleep(150);
        }
        throw new AssertionError(what + " did not happen within " + timeout + "; page text: " + text("body"));
    }

    void type(String css, String text) {
        String id = await(css, Duration.ofSeconds(10));
        command("POST", "/element/" + id + "/clear", Map.of());
        command("POST", "/element/" + id + "/value", Map.of("text", text));
    }

    /** Chooses a local file in a file input (the path is typed into it, as a user's choice would be). */
    void chooseFile(String css, Path file) {
        command("POST", "/element/" + await(css, Duration.ofSeconds(10)) + "/value",
                Map.of("text", file.toAbsolutePath().toString()));
    }

    void click(String css) {
        command("POST", "/element/" + await(css, Duration.ofSeconds(10)) + "/click", Map.of());
    }

    /** Selects the option with this value in a select element (through the DOM, firing "change"). */
    void select(String css, String value) {
        script("const s = document.querySelector(arguments[0]); s.value = arguments[1];"
                + "s.dispatchEvent(new Event('change'));", css, value);
    }

    String text(String css) {
        return find(css).map(id -> command("GET", "/element/" + id + "/text", null).asString()).orElse("");
    }

    int count(String css) {
        return command("POST", "/elements", Map.of("using", "css selector", "value", css)).size();
    }

    JsonNode script(String body, Object... args) {
        return command("POST", "/execute/sync", Map.of("script", body, "args", List.of(args)));
    }

    /** Browser console entries (errors and CSP reports among them) since the last call. */
    List<String> consoleLog() {
        List<String> out = new ArrayList<>();
        try {
            command("POST", "/se/log", Map.of("type", "browser")).forEach(e -> out.add(e.path("level").asString() + " "
                    + e.path("message").asString()));
        } catch (IllegalStateException e) {
            // This driver keeps no log: nothing to report.
        }
        return out;
    }

    void screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(command("GET", "/screenshot", null).asString()));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            command("DELETE", "", null);
        } catch (RuntimeException e) {
            // the browser may already be gone
        } finally {
            driver.destroy();
            try {
                if (!driver.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                    driver.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
