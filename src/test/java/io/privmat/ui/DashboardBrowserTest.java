package io.privmat.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The web dashboard in a real headless browser (Chromium through chromedriver): logs in with a key,
 * opens every page, checks what they render and saves screenshots under target/ui-screenshots. Skips,
 * saying why, where no Chromium or chromedriver is installed (Debian: apt-get install chromium
 * chromium-driver; .ci/run installs them best effort). Run alone with {@code -Dgroups=browser}.
 */
@Tag("browser")
class DashboardBrowserTest extends ApiTest {

    private static final Path SHOTS = Path.of("target", "ui-screenshots");
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A 60 × 8 matrix of rows with norm at most 1: two correlated groups of columns plus noise. */
    private String survey() {
        String id = postJson("/v1/datasets", "{\"name\":\"survey\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"budget\":{\"epsilon\":20,\"delta\":1e-6}}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(23);
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            double a = random.nextGaussian(), b = random.nextGaussian();
            double[] row = new double[8];
            for (int j = 0; j < 8; j++) {
                row[j] = (j < 4 ? a : b * 0.6) + 0.2 * random.nextGaussian();
            }
            double norm = Math.sqrt(java.util.Arrays.stream(row).map(x -> x * x).sum());
            for (int j = 0; j < 8; j++) {
                csv.append(j == 0 ? "" : ",").append(row[j] / Math.max(1, norm));
            }
            csv.append('\n');
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes());
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    private String friends() {
        String id = postJson("/v1/datasets", "{\"name\":\"friends\",\"kind\":\"GRAPH\",\"vertices\":"
                + vertices(labels("v", 1500)) + ",\"budget\":{\"epsilon\":10,\"delta\":1e-4}}").json().get("id").asString();
        StringBuilder csv = new StringBuilder();
        for (int u = 0; u < 1500; u++) {
            csv.append("v").append(u).append(",v").append((u + 1) % 1500).append(",1\n");
            if (u % 3 == 0) {
                csv.append("v").append(u).append(",v").append((u + 7) % 1500).append(",1\n");
            }
        }
        Response up = put("/v1/datasets/" + id + "/data", "text/csv", csv.toString().getBytes());
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        return id;
    }

    private String job(String dataset, String query) {
        Response r = postJson("/v1/datasets/" + dataset + "/queries", query);
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        String id = r.json().get("id").asString();
        JsonNode done = awaitJob(id);
        assertThat(done.get("state").asString()).as(done.toString()).isEqualTo("DONE");
        return id;
    }

    /** Chromium and chromedriver, or the test is skipped saying how to install them. */
    private static Path[] chromium() {
        Optional<Path[]> found = WebDriver.locate();
        Assumptions.assumeTrue(found.isPresent(), "SKIPPED: no Chromium and chromedriver on this machine "
                + "(Debian: apt-get install chromium chromium-driver; or set PRIVMAT_CHROMIUM and PRIVMAT_CHROMEDRIVER)");
        return found.get();
    }

    @Test
    void staticPagesNeedNoKeyAndCarryAStrictPolicy() throws Exception {
        HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> redirect = client.send(HttpRequest.newBuilder(uri("/ui")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("Location").orElse("")).endsWith("/ui/");
        for (String path : new String[] {"/ui/", "/ui/index.html", "/ui/js/main.js", "/ui/app.css"}) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertThat(csp).as(path).contains("default-src 'none'", "script-src 'self'", "style-src 'self'",
                    "connect-src 'self'", "frame-ancestors 'none'").doesNotContain("unsafe-inline", "unsafe-eval");
        }
        HttpResponse<String> index = client.send(HttpRequest.newBuilder(uri("/ui/")).build(), HttpResponse.BodyHandlers.ofString());
        // No inline script or style in the page itself, no third-party origin.
        assertThat(index.body()).contains("<script type=\"module\" src=\"js/main.js\"></script>")
                .doesNotContain("<style", "style=", "onclick", "http://", "https://");
        // The API behind the pages still needs a key.
        assertThat(client.send(HttpRequest.newBuilder(uri("/v1/jobs")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(401);
    }

    @Test
    void everyPageRendersInARealBrowser() throws Exception {
        Path[] chromium = chromium();
        String survey = survey();
        String friends = friends();
        assertThat(postJson("/v1/datasets/" + survey + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status()).isEqualTo(201);
        String covariance = job(survey, "{\"kind\":\"COVARIANCE\",\"mechanism\":\"ANALYZE_GAUSS\",\"rho\":0.5}");
        String lowRank = job(survey, "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"rho\":0.5,"
                + "\"params\":{\"k\":2}}");
        job(survey, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.05}");
        String sketch = job(friends, "{\"kind\":\"SKETCH\",\"mechanism\":\"JL\",\"epsilon\":2,\"delta\":1e-6,"
                + "\"params\":{\"eta\":0.3,\"nu\":0.1}}");
        String base = "http://localhost:" + port + "/ui/";

        try (WebDriver browser = new WebDriver(chromium[0], chromium[1], 1280, 1400)) {
            browser.open(base);
            browser.await("#login-form", WAIT);
            browser.screenshot(SHOTS.resolve("01-login.png"));

            browser.type("#api-key", ownerKey());
            browser.click("#login");
            browser.await("#datasets tr[data-dataset='" + survey + "']", WAIT);
            assertThat(browser.text("#who")).contains("owner-a", "OWNER");
            assertThat(browser.text("#datasets")).contains("survey", "friends");
            browser.screenshot(SHOTS.resolve("02-datasets.png"));

            browser.open(base + "#/datasets/" + survey);
            browser.await("#budget-gauges svg", WAIT);
            browser.await("#dataset-jobs table", WAIT);
            browser.await("#grants table", WAIT);
            assertThat(browser.count("#budget-gauges svg")).isGreaterThanOrEqualTo(1);
            assertThat(browser.count("#ledger-chart svg path.series")).isEqualTo(1);
            // The transparency record: one row per charged release (the three jobs above).
            browser.await("#transparency table", WAIT);
            assertThat(browser.count("#transparency tr[data-entry]")).isEqualTo(3);
            assertThat(browser.text("#grants")).contains(ANALYST);
            assertThat(browser.count("#dataset-jobs tr[data-job]")).isEqualTo(3);

            // Quote before submit, from the catalogue in the contract: PCA with Analyze Gauss, k = 3.
            browser.await("#q-mechanism", WAIT);
            browser.select("#q-mechanism", "ANALYZE_GAUSS");
            browser.select("#q-kind", "PCA");
            browser.type("#q-rho", "0.2");
            browser.type("#q-params-k", "3");
            assertThat(browser.script("return document.querySelector('#q-submit').disabled").asBoolean()).isTrue();
            browser.click("#q-quote");
            browser.until("a quote", WAIT, () -> browser.text("#quote-cost").contains("rho"));
            assertThat(browser.text("#quote")).contains("admissible");
            // The expected error the quote states, highlighted before anything is spent.
            assertThat(browser.text("#quote-expected")).contains("Expected error", "absPerEigenvalue",
                    "capturedVarianceGap", "BOUND");
            // Only the mechanisms that read a MATRIX are offered; the others are listed as refused here.
            assertThat(options("#q-mechanism", browser)).contains("ANALYZE_GAUSS", "JL", "WISHART")
                    .doesNotContain("DP_ALS", "OPTIMIZED", "PRIVATE_FRANK_WOLFE", "HARDT_ROTH_RATING", "BLOCKS");
            assertThat(browser.text("#q-refused")).contains("Not offered here");
            browser.script("document.querySelector('#query-form').scrollIntoView()");
            browser.screenshot(SHOTS.resolve("04-quote.png"));
            browser.script("window.scrollTo(0, 0)");
            browser.screenshot(SHOTS.resolve("03-dataset.png"));
            browser.click("#q-submit");

            // The job page follows the job, then plots the PCA result: a scree plot with three bars.
            browser.await("#job", WAIT);
            browser.until("the job is DONE", WAIT, () -> browser.text("#job").contains("DONE"));
            browser.await("#scree svg", WAIT);
            assertThat(browser.count("#scree svg rect.bar")).isEqualTo(3);
            assertThat(browser.count("#scree svg polyline.series2")).isEqualTo(1);
            // The eigenvalue intervals the result carries, one per released eigenvalue.
            browser.await("#intervals-eigenvalues svg", WAIT);
            assertThat(browser.count("#intervals-eigenvalues svg circle.point")).isEqualTo(3);
            assertThat(browser.count("#intervals-eigenvalues svg line.interval")).isEqualTo(9);
            browser.screenshot(SHOTS.resolve("05-pca.png"));

            browser.open(base + "#/jobs");
            browser.await("#jobs tr[data-job]", WAIT);
            assertThat(browser.count("#jobs tr[data-job]")).isGreaterThanOrEqualTo(5);
            assertThat(browser.text("#jobs")).contains("FINISHED", "ANALYZE_GAUSS", "JL");
            browser.screenshot(SHOTS.resolve("06-jobs.png"));

            browser.open(base + "#/jobs/" + covariance);
            browser.await("#heatmap svg", WAIT);
            assertThat(browser.count("#heatmap svg g rect")).isEqualTo(64);
            // A covariance release answers directional variances (its kind from GET /v1/releases/{id}).
            browser.await("#release-input", WAIT);
            assertThat(browser.text("#release h2")).isEqualTo("Directional variance (free)");
            browser.screenshot(SHOTS.resolve("07-covariance.png"));

            browser.open(base + "#/jobs/" + lowRank);
            browser.await("#factors svg", WAIT);
            assertThat(browser.count("#factors svg g rect")).isEqualTo(16);
            assertThat(browser.count("#singular-values svg rect.bar")).isEqualTo(2);
            browser.screenshot(SHOTS.resolve("08-low-rank.png"));

            browser.open(base + "#/jobs/" + sketch);
            browser.await("#release-input", WAIT);
            browser.type("#release-input", "v0,v1,v2,v3,v4\nv0,v10,v20");
            browser.click("#release-ask");
            browser.await("#release-answers svg", WAIT);
            assertThat(browser.count("#release-answers svg circle.point")).isEqualTo(2);
            assertThat(browser.count("#release-answers svg line.interval")).isEqualTo(6);
            browser.screenshot(SHOTS.resolve("09-cuts.png"));

            // The analyst: its own scope, no grants, no worker timestamps, no ETA.
            browser.click("#logout");
            browser.await("#login-form", WAIT);
            browser.type("#api-key", analystKey());
            browser.click("#login");
            browser.await("#datasets tr[data-dataset='" + survey + "']", WAIT);
            assertThat(browser.text("#datasets")).doesNotContain("friends");
            browser.open(base + "#/datasets/" + survey);
            browser.await("#query-form", WAIT);
            browser.await("#dataset-jobs", WAIT);
            assertThat(browser.find("#grants")).isEmpty();
            browser.screenshot(SHOTS.resolve("10-analyst-dataset.png"));
            browser.open(base + "#/jobs");
            browser.await("#jobs", WAIT);
            browser.await("#jobs table, #jobs p", WAIT);
            // The owner's jobs on the survey are not the analyst's.
            assertThat(browser.find("#jobs tr[data-job='" + covariance + "']")).isEmpty();
            assertThat(browser.script("return sessionStorage.length").asInt()).isEqualTo(1);
            assertThat(browser.script("return localStorage.length + document.cookie.length").asInt()).isZero();

            // No script error and no Content-Security-Policy violation on any page.
            List<String> log = browser.consoleLog();
            assertThat(log).noneMatch(l -> l.contains("Content Security Policy") || l.contains("Uncaught"));
        }
    }

    /** The values of a select's options, in order. */
    private static List<String> options(String css, WebDriver browser) {
        List<String> out = new java.util.ArrayList<>();
        browser.script("return [...document.querySelectorAll(arguments[0] + ' option')].map(o => o.value)", css)
                .forEach(v -> out.add(v.asString()));
        return out;
    }

    /** Logs in afresh with this key and waits for the page the role lands on (keys for an admin, else datasets). */
    private static void login(WebDriver browser, String base, String key, String landing) {
        browser.script("try { sessionStorage.clear(); } catch (e) { /* no page of ours yet */ }");
        browser.open(base);
        browser.await("#login-form", WAIT);
        browser.type("#api-key", key);
        browser.click("#login");
        browser.await(landing, WAIT);
    }

    /** Scrolls the element, with the heading just above it, to the top of the window (for a screenshot). */
    private static void showFromHeading(WebDriver browser, String css) {
        browser.script("document.querySelector(arguments[0]).scrollIntoView(); window.scrollBy(0, -48)", css);
    }

    /** Fills the dataset form's name, budget and (if given) row bound. */
    private static void declare(WebDriver browser, String name, String kind, String epsilon, String rowNormBound) {
        browser.await("#c-create", WAIT);
        browser.type("#c-name", name);
        browser.select("#c-kind", kind);
        browser.type("#c-budget-epsilon", epsilon);
        browser.type("#c-budget-delta", "1e-6");
        if (rowNormBound != null) {
            browser.type("#c-rowNormBound", rowNormBound);
        }
    }

    @Test
    void anOwnerCreatesUploadsGrantsAndStreamsFromTheBrowser() throws Exception {
        Path[] chromium = chromium();
        // A 120 × 4 CSV with a header, as an owner would pick it from disk.
        Path csv = Path.of("target", "ui-fixtures", "panel.csv");
        java.nio.file.Files.createDirectories(csv.getParent());
        SplittableRandom random = new SplittableRandom(5);
        StringBuilder rows = new StringBuilder("income,rent,age,visits\n");
        for (int i = 0; i < 120; i++) {
            double a = random.nextGaussian() * 0.3;
            rows.append(String.format(java.util.Locale.ROOT, "%.4f,%.4f,%.4f,%.4f%n", a, a * 0.8 + 0.05 * random.nextGaussian(),
                    0.3 * random.nextGaussian(), 0.2 * random.nextGaussian()));
        }
        java.nio.file.Files.writeString(csv, rows);
        String base = "http://localhost:" + port + "/ui/";

        try (WebDriver browser = new WebDriver(chromium[0], chromium[1], 1280, 1000)) {
            login(browser, base, ownerKey(), "#datasets");
            browser.click("#new-dataset");

            // Create: a budget out of range is refused inline, at its field (RFC 9457 parameter).
            declare(browser, "panel", "MATRIX", "500", "1");
            browser.click("#c-create");
            browser.await("#c-budget-epsilon[aria-invalid='true']", WAIT);
            assertThat(browser.text("#c-budget-epsilon-error")).contains("budget.epsilon", "(0, 100]");
            assertThat(browser.text("#create-problem")).contains("Invalid parameter (400)");
            // A MATRIX takes a row bound, no vertices, attributes or stream blocks.
            assertThat(browser.script("return ['rowNormBound', 'vertices', 'attributes', 'stream', 'ratings', 'external']"
                    + ".map(s => document.querySelector('#create-' + s).hidden)").toString())
                    .isEqualTo("[false,true,true,true,true,true]");
            browser.screenshot(SHOTS.resolve("11-create.png"));
            browser.type("#c-budget-epsilon", "8");
            // Editing the field clears its mark.
            assertThat(browser.find("#c-budget-epsilon[aria-invalid='true']")).isEmpty();
            browser.click("#c-create");

            // Upload with progress: the content type follows the file's extension.
            browser.await("#upload-file", WAIT);
            browser.chooseFile("#upload-file", csv);
            assertThat(browser.script("return document.querySelector('#upload-type').value").asString()).isEqualTo("text/csv");
            browser.click("#upload-send");
            browser.await("#upload-done", WAIT);
            assertThat(browser.text("#upload-done")).contains("READY", "120");
            assertThat(browser.script("return document.querySelector('#upload-progress').value").asDouble()).isEqualTo(1.0);
            showFromHeading(browser, "#upload");
            browser.screenshot(SHOTS.resolve("12-upload.png"));
            browser.click("#upload-continue");

            // Grant an analyst that has no key nor grant anywhere yet: the owner knows the subject name.
            browser.await("#query-form", WAIT);
            browser.await("#grant-analyst", WAIT);
            assertThat(browser.text("#dataset-facts")).contains("income, rent, age, visits");
            browser.type("#grant-analyst", "analyst-new");
            browser.click("#grant-add");
            browser.await("#grants tr[data-grant='analyst-new']", WAIT);
            assertThat(browser.text("#grant-message")).contains("analyst-new may now see this dataset");
            showFromHeading(browser, "#grants");
            browser.screenshot(SHOTS.resolve("13-grant.png"));

            // A matrix STREAM: declared in the form, subscribed to, appended to from pasted rows.
            browser.open(base + "#/datasets/new");
            declare(browser, "sensors", "STREAM", "4", "1");
            browser.type("#c-stream-columns", "3");
            browser.type("#c-stream-blockRows", "5");
            browser.type("#c-stream-windowBlocks", "2");
            browser.type("#c-stream-horizonBlocks", "50");
            browser.click("#c-create");
            browser.await("#append-text", WAIT);
            browser.await("#s-mechanism", WAIT);
            assertThat(options("#s-mechanism", browser)).containsExactlyInAnyOrder("BLOCKS", "DYADIC_TREE", "FACTORIZATION");
            assertThat(browser.find("#query-form")).isEmpty(); // a stream answers subscriptions, not one-shot queries
            browser.select("#s-mechanism", "BLOCKS");
            browser.select("#s-kind", "COVARIANCE");
            browser.type("#s-rho", "0.1");
            browser.click("#s-quote");
            browser.until("a subscription quote", WAIT, () -> browser.text("#s-quote-cost").contains("rho"));
            browser.click("#s-submit");
            browser.await("#subscription", WAIT);
            browser.until("the subscription", WAIT, () -> browser.text("#subscription").contains("ACTIVE"));
            String subscription = browser.script("return location.hash.split('/')[2]").asString();
            browser.click("#subscription a[href^='#/datasets/']");
            browser.await("#append-text", WAIT);
            StringBuilder batch = new StringBuilder();
            for (int i = 0; i < 12; i++) {
                batch.append(String.format(java.util.Locale.ROOT, "%.2f,%.2f,%.2f%n", 0.1 * (i % 5), 0.05 * (i % 3), -0.1));
            }
            browser.type("#append-text", batch.toString());
            browser.click("#append-send");
            browser.await("#append-done", WAIT);
            assertThat(browser.text("#append-done")).contains("Appended 12 row(s)", "release 0", "release 1");
            browser.until("the subscription's releases", WAIT, () -> browser.text(
                    "#subscriptions tr[data-subscription='" + subscription + "']").contains("BLOCKS"));
            showFromHeading(browser, "#append");
            browser.screenshot(SHOTS.resolve("14-stream.png"));

            // The subscription's releases, and one window release with its free directional variances.
            browser.open(base + "#/subscriptions/" + subscription);
            browser.await("#releases tr[data-release]", WAIT);
            assertThat(browser.count("#releases tr[data-release]")).isEqualTo(2);
            browser.screenshot(SHOTS.resolve("15-subscription.png"));
            browser.click("#releases tr[data-release='1'] a");
            browser.await("#window-heatmap svg", WAIT);
            assertThat(browser.count("#window-heatmap svg g rect")).isEqualTo(9);
            browser.await("#release-input", WAIT);
            browser.type("#release-input", "1,0,0\n0,1,1");
            browser.click("#release-ask");
            browser.await("#release-answers svg", WAIT);
            assertThat(browser.count("#release-answers svg circle.point")).isEqualTo(2);
            browser.screenshot(SHOTS.resolve("16-window-release.png"));

            // The admin's key page: a key with a role, shown once, listed, revoked.
            login(browser, base, ADMIN_KEY, "#keys table");
            browser.type("#k-name", "carol");
            browser.select("#k-role", "ANALYST");
            browser.click("#k-create");
            browser.await("#new-key", WAIT);
            String key = browser.text("#new-key");
            assertThat(key).startsWith("pm_");
            assertThat(browser.text("#keys")).contains("carol").doesNotContain(key);
            browser.screenshot(SHOTS.resolve("17-keys.png"));
            String id = browser.script("return [...document.querySelectorAll('#keys tr[data-key]')]"
                    + ".find(r => r.textContent.includes('carol')).dataset.key").asString();
            browser.click("button[data-revoke='" + id + "']");
            browser.click("button[data-revoke='" + id + "']");
            browser.await("#keys tr.revoked[data-key='" + id + "']", WAIT);
            assertThat(sendAs(key, HttpRequest.newBuilder(uri("/v1/me")).GET()).status()).isEqualTo(401);

            List<String> log = browser.consoleLog();
            assertThat(log).noneMatch(l -> l.contains("Content Security Policy") || l.contains("Uncaught"));
        }
    }

    @Test
    void anAnalystReadsLinearQueryAnswersAsATableAndPlot() throws Exception {
        Path[] chromium = chromium();
        String histogram = postJson("/v1/datasets", "{\"name\":\"visits\",\"kind\":\"HISTOGRAM\",\"attributes\":["
                + "{\"name\":\"age\",\"size\":8},{\"name\":\"region\",\"labels\":[\"north\",\"south\"]}],"
                + "\"budget\":{\"epsilon\":5,\"delta\":1e-6}}").json().get("id").asString();
        SplittableRandom random = new SplittableRandom(11);
        StringBuilder records = new StringBuilder("age,region\n");
        for (int i = 0; i < 400; i++) {
            records.append(Math.min(7, (int) (-Math.log(1 - random.nextDouble()) * 2.5))).append(',')
                    .append(random.nextBoolean() ? "north" : "south").append('\n');
        }
        Response up = put("/v1/datasets/" + histogram + "/data", "text/csv", records.toString().getBytes());
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        assertThat(postJson("/v1/datasets/" + histogram + "/grants", "{\"analyst\":\"" + ANALYST + "\"}").status())
                .isEqualTo(201);
        String ratings = postJson("/v1/datasets", "{\"name\":\"films\",\"kind\":\"RATINGS\",\"ratings\":"
                + "{\"items\":20,\"min\":1,\"max\":5,\"perUserCap\":10},\"budget\":{\"epsilon\":5,\"delta\":1e-6}}")
                .json().get("id").asString();
        StringBuilder triples = new StringBuilder();
        for (int u = 0; u < 200; u++) {
            for (int k = 0; k < 4; k++) {
                triples.append('u').append(u).append(',').append((u + 5 * k) % 20).append(',').append(1 + (u + k) % 5)
                        .append('\n');
            }
        }
        Response rated = put("/v1/datasets/" + ratings + "/data", "text/csv", triples.toString().getBytes());
        assertThat(rated.status()).as(rated.toString()).isEqualTo(200);
        String completion = job(ratings, "{\"kind\":\"COMPLETION\",\"mechanism\":\"PRIVATE_FRANK_WOLFE\",\"rho\":0.2,"
                + "\"params\":{\"iterations\":3}}");
        String base = "http://localhost:" + port + "/ui/";

        try (WebDriver browser = new WebDriver(chromium[0], chromium[1], 1280, 1000)) {
            // The owner's COMPLETION job: a completion model answers no free query, so no form is offered.
            login(browser, base, ownerKey(), "#datasets");
            browser.open(base + "#/jobs/" + completion);
            browser.await("#release-none", WAIT);
            assertThat(browser.text("#release-none")).contains("answers no free query", "/predictions");
            assertThat(browser.find("#release-input")).isEmpty();
            browser.open(base + "#/datasets/" + ratings);
            browser.await("#q-mechanism", WAIT);
            assertThat(options("#q-mechanism", browser)).containsExactlyInAnyOrder("DP_ALS", "PRIVATE_FRANK_WOLFE",
                    "PRIVATE_SVD");

            login(browser, base, analystKey(), "#datasets");
            browser.open(base + "#/datasets/" + histogram);
            browser.await("#q-mechanism", WAIT);
            assertThat(options("#q-mechanism", browser)).containsExactlyInAnyOrder("GAUSSIAN_IDENTITY", "HIERARCHICAL",
                    "LAPLACE_IDENTITY", "LAPLACE_WORKLOAD", "LOW_RANK_MECHANISM", "OPTIMIZED");
            browser.select("#q-mechanism", "OPTIMIZED");
            browser.type("#q-params-workload", "{\"type\":\"ALL_RANGE\"}");
            browser.type("#q-rho", "0.1");
            browser.click("#q-quote");
            browser.await("#quote-expected", WAIT);
            assertThat(browser.text("#quote-expected")).contains("rmsePerQuery", "absPerAnswer", "EXACT");
            browser.click("#q-submit");

            // ALL_RANGE on 8 × 2 cells: 36 age ranges × 3 region ranges = 108 answers, each a table row and a point.
            browser.await("#linear-result table", WAIT);
            assertThat(browser.count("#linear-result tr[data-answer]")).isEqualTo(108);
            assertThat(browser.count("#linear-result svg circle.point")).isEqualTo(108);
            assertThat(browser.count("#linear-result svg line.interval")).isEqualTo(108);
            assertThat(browser.text("#linear-result")).contains("probability ≥ 0.95");
            assertThat(browser.find("#release-input")).isEmpty(); // no directional-variance form on a histogram estimate
            browser.screenshot(SHOTS.resolve("18-linear-queries.png"));

            // Free boxes on the stored estimate.
            browser.await("#linear-boxes", WAIT);
            browser.type("#linear-boxes", "age=0-3\nage=4-7, region=1");
            browser.click("#linear-ask");
            browser.await("#linear-table table", WAIT);
            assertThat(browser.count("#linear-table tr[data-answer]")).isEqualTo(2);
            assertThat(browser.text("#linear-table")).contains("age=0-3", "age=4-7, region=1");
            showFromHeading(browser, "#release");
            browser.screenshot(SHOTS.resolve("19-linear-boxes.png"));

            // The rendering helpers on inputs the service does not make today: a quote's `warnings` list.
            JsonNode warnings = browser.script("return import('/ui/js/catalogue.js').then(m => m.warnings({warnings: "
                    + "['plain', {code: 'NOISE_DOMINATED', message: 'the noise dominates'}, {detail: 'x'}]}))");
            assertThat(warnings.toString()).isEqualTo("[\"plain\",\"NOISE_DOMINATED: the noise dominates\",\"x\"]");
            assertThat(browser.script("return import('/ui/js/catalogue.js').then(m => m.warnings({}).length)").asInt())
                    .isZero();
            JsonNode boxes = browser.script("return import('/ui/js/results.js').then(m => m.parseBoxes('age=0-3, region=1'))");
            assertThat(boxes.toString()).isEqualTo("[{\"age\":[0,3],\"region\":[1,1]}]");

            List<String> log = browser.consoleLog();
            assertThat(log).noneMatch(l -> l.contains("Content Security Policy") || l.contains("Uncaught"));
        }
    }
}
