package io.privmat.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.privacy.Tracks;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.support.ApiTest;
import java.net.http.HttpRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** GET /v1/jobs: who sees which jobs, the filters, paging; the phase and ETA of a job view. */
class JobListTest extends ApiTest {

    private static final String QUERY = "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"rho\":0.001}";

    private String submit(String key, String dataset) {
        Response r = sendAs(key, HttpRequest.newBuilder(uri("/v1/datasets/" + dataset + "/queries"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("id").asString();
    }

    private JsonNode list(String key, String query) {
        Response r = sendAs(key, HttpRequest.newBuilder(uri("/v1/jobs?" + query)).GET());
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        return r.json();
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(j -> ids.add(j.get("id").asString()));
        return ids;
    }

    @Test
    void eachRoleSeesItsScopeAndFiltersNarrowIt() {
        String dataset = readyMatrix("{\"epsilon\":20,\"delta\":1e-6}", "REPLACE_ONE");
        for (String analyst : new String[] {ANALYST, "analyst-b"}) {
            assertThat(postJson("/v1/datasets/" + dataset + "/grants", "{\"analyst\":\"" + analyst + "\"}").status())
                    .isEqualTo(201);
        }
        String a = submit(analystKey(), dataset);
        String b = submit(otherAnalystKey(), dataset);
        String o = submit(ownerKey(), dataset);
        for (String id : new String[] {a, b, o}) {
            assertThat(awaitJob(id).get("state").asString()).isEqualTo("DONE");
        }
        String byDataset = "datasetId=" + dataset;

        assertThat(ids(list(analystKey(), byDataset))).containsExactly(a);
        assertThat(ids(list(otherAnalystKey(), byDataset))).containsExactly(b);
        // A submitter filter never widens an analyst's scope.
        assertThat(ids(list(analystKey(), byDataset + "&submitter=analyst-b"))).isEmpty();
        // The owner sees every job on its dataset, newest first; the admin too; another owner none.
        assertThat(ids(list(ownerKey(), byDataset))).containsExactly(o, b, a);
        assertThat(ids(list(ADMIN_KEY, byDataset))).containsExactly(o, b, a);
        assertThat(ids(list(otherOwnerKey(), byDataset))).isEmpty();
        assertThat(ids(list(ownerKey(), byDataset + "&submitter=" + ANALYST))).containsExactly(a);
        assertThat(ids(list(ownerKey(), byDataset + "&state=DONE"))).containsExactly(o, b, a);
        assertThat(ids(list(ownerKey(), byDataset + "&state=QUEUED"))).isEmpty();

        JsonNode page = list(ownerKey(), byDataset + "&offset=1&limit=1");
        assertThat(ids(page)).containsExactly(b);
        assertThat(page.get("total").asLong()).isEqualTo(3);
        assertThat(page.get("offset").asInt()).isEqualTo(1);
        assertThat(page.get("limit").asInt()).isEqualTo(1);

        // Analysts see no worker timestamps and no ETA in the list either; the owner sees the times.
        JsonNode mine = list(analystKey(), byDataset).get("items").get(0);
        assertThat(mine.get("startedAt").isNull()).isTrue();
        assertThat(mine.get("finishedAt").isNull()).isTrue();
        assertThat(mine.get("etaSeconds").isNull()).isTrue();
        assertThat(mine.get("phase").asString()).isEqualTo("FINISHED");
        JsonNode theirs = list(ownerKey(), byDataset + "&submitter=" + ANALYST).get("items").get(0);
        assertThat(theirs.get("startedAt").isNull()).isFalse();
    }

    @Test
    void badParametersAre400() {
        for (String query : new String[] {"limit=0", "limit=501", "offset=-1", "state=BOGUS", "datasetId=nope"}) {
            Response r = sendAs(ownerKey(), HttpRequest.newBuilder(uri("/v1/jobs?" + query)).GET());
            assertThat(r.status()).as(query + ": " + r).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
        }
    }

    private static Job job(JobState state, double progress, Instant dataAccess, Instant started) {
        return new Job(UUID.randomUUID(), UUID.randomUUID(), "owner", "PCA", "M", "{}", "h", null, "analyst", state,
                progress, "{}", Tracks.ZERO, 1, null, null, dataAccess,
                Instant.EPOCH, started, null, null, null);
    }

    @Test
    void phaseIsAFunctionOfPublicFieldsAndOnlyInsidersGetAnEta() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(JobView.phase(JobState.QUEUED, false, 0)).isEqualTo("WAITING");
        assertThat(JobView.phase(JobState.RUNNING, false, 0)).isEqualTo("STARTING");
        assertThat(JobView.phase(JobState.RUNNING, true, 0.3)).isEqualTo("READING_DATA");
        assertThat(JobView.phase(JobState.RUNNING, true, 0.95)).isEqualTo("RELEASING");
        assertThat(JobView.phase(JobState.FAILED, true, 0.3)).isEqualTo("FINISHED");

        Job running = job(JobState.RUNNING, 0.25, t0, t0);
        Instant now = t0.plusSeconds(30);
        Caller owner = new Caller(UUID.randomUUID(), "owner", Role.OWNER);
        Caller admin = new Caller(UUID.randomUUID(), "root", Role.ADMIN);
        Caller analyst = new Caller(UUID.randomUUID(), "analyst", Role.ANALYST);
        // 30 s for a quarter: 90 s left.
        assertThat(JobView.of(running, owner, now).etaSeconds()).isEqualTo(90L);
        assertThat(JobView.of(running, admin, now).etaSeconds()).isEqualTo(90L);
        JobView seen = JobView.of(running, analyst, now);
        assertThat(seen.etaSeconds()).isNull();
        assertThat(seen.startedAt()).isNull();
        assertThat(seen.phase()).isEqualTo("READING_DATA");
        // No progress yet, or finished: no ETA for anyone.
        assertThat(JobView.of(job(JobState.RUNNING, 0, t0, t0), owner, now).etaSeconds()).isNull();
        assertThat(JobView.of(job(JobState.DONE, 1, t0, t0), owner, now).etaSeconds()).isNull();
    }

    @Test
    void aSubmitterFilterWithAControlCharacterIsRefused() {
        // No subject has one, and a NUL cannot reach PostgreSQL: a 400 naming the parameter (it was a 500).
        Response r = sendAs(ownerKey(), HttpRequest.newBuilder(uri("/v1/jobs?submitter=a%00b")).GET());
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.contentType()).contains("problem+json");
        assertThat(r.text()).contains("submitter");
    }
}
