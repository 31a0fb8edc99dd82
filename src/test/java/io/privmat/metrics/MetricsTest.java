package io.privmat.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.job.JobHandler;
import io.privmat.job.worker.JobExecutor;
import io.privmat.mechanism.covariance.BinghamSampler;
import io.privmat.mechanism.linalg.NumericalFailureException;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The privmat series on /actuator/prometheus appear after an upload, a job and refusals; ADMIN only. */
class MetricsTest extends ApiTest {

    @Autowired
    List<JobHandler> handlers;

    @Autowired
    StateGauges gauges;

    private String scrape() {
        Response r = sendAs(ADMIN_KEY, HttpRequest.newBuilder(uri("/actuator/prometheus")).GET());
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        return r.text();
    }

    /** The value of the first series of {@code name} whose labels contain every one of {@code labels}. */
    private static double value(String scrape, String name, String... labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(scrape);
        while (m.find()) {
            String found = m.group(1);
            if (Arrays.stream(labels).allMatch(found::contains)) {
                return Double.parseDouble(m.group(2));
            }
        }
        throw new AssertionError("no series " + name + " with " + List.of(labels));
    }

    @Test
    void seriesAppearAfterAnUploadAJobAndRefusals() {
        String dataset = readyMatrix("{\"epsilon\":1,\"delta\":1e-6}", "REPLACE_ONE");
        JsonNode result = runQuery(dataset, "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}");
        assertThat(result.isObject()).isTrue();
        // A refusal: far more than the budget holds.
        Response refused = postJson("/v1/datasets/" + dataset + "/queries",
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":5}");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        // A problem written by the security filters rather than the MVC handlers.
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/v1/datasets")).GET()).status()).isEqualTo(401);
        gauges.refresh();

        String s = scrape();
        assertThat(value(s, "privmat_jobs_admitted_total", "kind=\"COLUMN_SUMS\"", "mechanism=\"GAUSSIAN\""))
                .isGreaterThanOrEqualTo(1);
        assertThat(value(s, "privmat_jobs_queue_wait_seconds_count", "kind=\"COLUMN_SUMS\"")).isGreaterThanOrEqualTo(1);
        assertThat(value(s, "privmat_jobs_duration_seconds_count", "kind=\"COLUMN_SUMS\"", "state=\"DONE\""))
                .isGreaterThanOrEqualTo(1);
        assertThat(value(s, "privmat_jobs", "kind=\"COLUMN_SUMS\"", "state=\"DONE\"")).isGreaterThanOrEqualTo(1);
        assertThat(value(s, "privmat_problems_total", "type=\"budget-exhausted\"", "status=\"409\""))
                .isGreaterThanOrEqualTo(1);
        assertThat(value(s, "privmat_problems_total", "type=\"unauthenticated\"", "status=\"401\""))
                .isGreaterThanOrEqualTo(1);
        assertThat(value(s, "privmat_ingest_bytes_total", "kind=\"MATRIX\"")).isGreaterThanOrEqualTo(
                "0.1,0.2,0.3\n0.3,0.2,0.1\n0,0,1\n0.5,0.5,0\n".length());
        assertThat(value(s, "privmat_ingest_rows_total", "kind=\"MATRIX\"")).isGreaterThanOrEqualTo(4);

        // Budget gauges agree with the budget endpoint: cap = spent + remaining, spent > 0 after the job.
        String tag = "dataset=\"" + dataset + "\"";
        String[] tracks = {"rho", "epsilon", "delta"};
        int seen = 0;
        double spentOverall = 0;
        for (String track : tracks) {
            String t = "track=\"" + track + "\"";
            if (!hasSeries(s, "privmat_budget_cap", tag, t)) {
                continue;
            }
            seen++;
            double cap = value(s, "privmat_budget_cap", tag, t);
            double spent = value(s, "privmat_budget_spent", tag, t);
            double remaining = value(s, "privmat_budget_remaining", tag, t);
            assertThat(spent + remaining).as(track).isCloseTo(cap, org.assertj.core.data.Offset.offset(1e-12 * cap));
            assertThat(spent).as(track).isGreaterThanOrEqualTo(0);
            spentOverall += spent;
        }
        assertThat(seen).as("budget tracks of the dataset").isGreaterThan(0);
        assertThat(spentOverall).as("the job's charge shows on some track").isGreaterThan(0);
    }

    private static boolean hasSeries(String scrape, String name, String... labels) {
        try {
            value(scrape, name, labels);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    @Test
    void onlyTheAdminReadsMetrics() {
        for (String key : new String[] {ownerKey(), analystKey()}) {
            assertThat(sendAs(key, HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).status()).isEqualTo(403);
        }
        assertThat(sendAs(null, HttpRequest.newBuilder(uri("/actuator/prometheus")).GET()).status()).isEqualTo(401);
    }

    @Test
    void failuresAreClassifiedByTypeNotMessage() {
        JobHandler queries = handlers.stream().filter(h -> h.kinds().contains("PCA")).findFirst().orElseThrow();
        assertThat(JobExecutor.failureClass(queries, new IllegalStateException(new NumericalFailureException("x"))))
                .isEqualTo("numerical");
        assertThat(JobExecutor.failureClass(queries, new BinghamSampler.SamplerFailureException())).isEqualTo("sampler");
        assertThat(JobExecutor.failureClass(queries, new OutOfMemoryError())).isEqualTo("memory");
        assertThat(JobExecutor.failureClass(queries, new IllegalArgumentException("numerical sampler")))
                .isEqualTo("other");
    }
}
