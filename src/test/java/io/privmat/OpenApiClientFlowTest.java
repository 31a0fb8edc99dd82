package io.privmat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.client.ApiClient;
import io.privmat.client.ApiException;
import io.privmat.client.api.ApiKeysApi;
import io.privmat.client.api.BudgetApi;
import io.privmat.client.api.DatasetsApi;
import io.privmat.client.api.JobsApi;
import io.privmat.client.api.QueriesApi;
import io.privmat.client.api.ReleasesApi;
import io.privmat.client.model.Answers;
import io.privmat.client.model.BudgetRequest;
import io.privmat.client.model.BudgetStatus;
import io.privmat.client.model.CreateApiKeyRequest;
import io.privmat.client.model.CreateDatasetRequest;
import io.privmat.client.model.CreatedApiKey;
import io.privmat.client.model.Dataset;
import io.privmat.client.model.DirectionalVarianceRequest;
import io.privmat.client.model.GrantRequest;
import io.privmat.client.model.Job;
import io.privmat.client.model.LedgerEntry;
import io.privmat.client.model.LedgerPage;
import io.privmat.client.model.PrivacyLoss;
import io.privmat.client.model.Problem;
import io.privmat.client.model.ColumnSumsResult;
import io.privmat.client.model.GaussianQuery;
import io.privmat.client.model.QueryRequest;
import io.privmat.client.model.SketchResult;
import io.privmat.client.model.WishartParams;
import io.privmat.client.model.WishartQuery;
import io.privmat.client.model.Quote;
import io.privmat.client.model.Release;
import io.privmat.support.ApiTest;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * openapi.yaml as a client sees it: the Java client openapi-generator builds from it in the test
 * build (validated; {@code target/generated-test-sources/openapi}) runs the whole flow with typed
 * objects only. A schema that disagrees with what the service serves fails here, at deserialisation.
 */
class OpenApiClientFlowTest extends ApiTest {

    private static final String CSV = "a,b,c\n0.1,0.2,-0.2\n3,4,0\n0,0.5,0.5\n0.2,0,0.3\n";

    /** A client of this server that sends the key as a bearer token. */
    private ApiClient client(String key) {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://localhost:" + port);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + key));
        return client;
    }

    @Test
    void keysDatasetUploadQuoteSubmitPollResultBudgetAndLedgerThroughTheGeneratedClient() throws Exception {
        ApiKeysApi admin = new ApiKeysApi(client(ADMIN_KEY));
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        CreatedApiKey owner = admin.createApiKey(new CreateApiKeyRequest().name("client-owner-" + suffix)
                .role(CreateApiKeyRequest.RoleEnum.OWNER));
        CreatedApiKey analyst = admin.createApiKey(new CreateApiKeyRequest().name("client-analyst-" + suffix)
                .role(CreateApiKeyRequest.RoleEnum.ANALYST));
        assertThat(analyst.getKey()).isNotBlank();
        assertThat(analyst.getSubject()).isEqualTo("client-analyst-" + suffix);

        DatasetsApi datasets = new DatasetsApi(client(owner.getKey()));
        Dataset created = datasets.createDataset(new CreateDatasetRequest().name("client-flow")
                .kind(CreateDatasetRequest.KindEnum.MATRIX).rowNormBound(1.0)
                .budget(new BudgetRequest().epsilon(BigDecimal.ONE).delta(new BigDecimal("1e-6"))));
        UUID id = created.getId();
        assertThat(created.getStatus()).isEqualTo(Dataset.StatusEnum.EMPTY);
        assertThat(datasets.getDataset(id).getName()).isEqualTo("client-flow");

        Dataset ready = csvUploads(owner.getKey()).uploadData(id, CSV, true);
        assertThat(ready.getStatus()).isEqualTo(Dataset.StatusEnum.READY);
        assertThat(ready.getRows()).isEqualTo(4L);
        assertThat(ready.getCols()).isEqualTo(3L);
        assertThat(ready.getClippedRows()).isEqualTo(1L);
        datasets.grantAccess(id, new GrantRequest().analyst(analyst.getSubject()));

        ApiClient asAnalyst = client(analyst.getKey());
        QueryRequest query = columnSums();
        Quote quote = new QueriesApi(asAnalyst).quote(id, query);
        assertThat(quote.getAdmissible()).isTrue();
        Job submitted = new QueriesApi(asAnalyst).submit(id, query, "client-" + suffix);
        assertThat(submitted.getState()).isIn(Job.StateEnum.QUEUED, Job.StateEnum.RUNNING, Job.StateEnum.DONE);
        assertThat(submitted.getCost().getRho()).isEqualByComparingTo(quote.getCost().getRho());

        JobsApi jobs = new JobsApi(asAnalyst);
        Job done = await(jobs, submitted.getId());
        assertThat(done.getState()).as("%s", done.getError()).isEqualTo(Job.StateEnum.DONE);
        assertThat(done.getParameters().getKind()).isEqualTo("COLUMN_SUMS");
        assertThat(done.getParameters().getMechanism()).isEqualTo(done.getMechanism());
        assertThat(done.getLoss().getMechanism().getNotion()).isEqualTo(PrivacyLoss.NotionEnum.GAUSSIAN);
        assertThat(done.getLoss().getMechanism().getSigma()).isPositive();
        assertThat(done.getLoss().getCharged().getRho().doubleValue()).isEqualTo(done.getCost().getRho());

        ColumnSumsResult sums = jobs.getJobResult(done.getId()).getColumnSumsResult();
        assertThat(sums.getColumnSums()).hasSize(3);
        assertThat(sums.getKind()).isEqualTo(ColumnSumsResult.KindEnum.COLUMN_SUMS);

        BudgetStatus budget = new BudgetApi(asAnalyst).getBudget(id);
        assertThat(budget.getAccounting()).isEqualTo("ZCDP");
        assertThat(budget.getSpent().getTracks().getRho()).isEqualByComparingTo(done.getCost().getRho());
        LedgerPage ledger = new BudgetApi(asAnalyst).listLedgerEntries(id, 0L, 100);
        assertThat(ledger.getEntries()).extracting(LedgerEntry::getType)
                .containsExactly(LedgerEntry.TypeEnum.RESERVE, LedgerEntry.TypeEnum.COMMIT);
        assertThat(ledger.getEntries()).allSatisfy(entry -> {
            assertThat(entry.getJobId()).isEqualTo(done.getId());
            assertThat(entry.getLoss()).isEqualTo(done.getLoss());
            assertThat(entry.getParameters()).isEqualTo(done.getParameters());
        });

        // Errors are typed too: cancelling a finished job is a 409 problem.
        assertThatThrownBy(() -> jobs.cancelJob(done.getId())).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.getCode()).isEqualTo(409);
            Problem problem = problem(e);
            assertThat(problem.getType()).hasToString("https://privmat.io/problems/job-already-finished");
            assertThat(problem.getState()).isEqualTo("DONE");
        });
        datasets.deleteDataset(id);
        assertThatThrownBy(() -> datasets.getDataset(id)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getCode()).isEqualTo(404));
    }

    @Test
    void aReleaseAndItsFreeQueriesThroughTheGeneratedClient() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        CreatedApiKey owner = new ApiKeysApi(client(ADMIN_KEY)).createApiKey(new CreateApiKeyRequest()
                .name("client-owner-" + suffix).role(CreateApiKeyRequest.RoleEnum.OWNER));
        ApiClient asOwner = client(owner.getKey());
        UUID id = new DatasetsApi(asOwner).createDataset(new CreateDatasetRequest().name("client-sketch")
                .kind(CreateDatasetRequest.KindEnum.MATRIX).rowNormBound(1.0)
                .budget(new BudgetRequest().epsilon(BigDecimal.ONE).delta(new BigDecimal("1e-6")))).getId();
        csvUploads(owner.getKey()).uploadData(id, CSV, true);

        JobsApi jobs = new JobsApi(asOwner);
        Job done = await(jobs, new QueriesApi(asOwner).submit(id, matrixSketch(), null).getId());
        assertThat(done.getState()).as("%s", done.getError()).isEqualTo(Job.StateEnum.DONE);
        SketchResult sketch = jobs.getJobResult(done.getId()).getSketchResult();
        assertThat(sketch.getReleaseKind()).isEqualTo(SketchResult.ReleaseKindEnum.MATRIX_SKETCH);
        UUID releaseId = sketch.getReleaseId();

        ReleasesApi releases = new ReleasesApi(asOwner);
        Release release = releases.getRelease(releaseId);
        assertThat(release.getKind()).isEqualTo(Release.KindEnum.MATRIX_SKETCH);
        assertThat(release.getJobId()).isEqualTo(done.getId());
        assertThat(release.getLoss()).isEqualTo(done.getLoss());
        assertThat(release.getParameters().getKind()).isEqualTo("SKETCH");
        Answers answers = releases.directionalVariances(releaseId,
                new DirectionalVarianceRequest().vectors(List.of(List.of(1.0, 0.0, 0.0), List.of(0.0, 0.6, 0.8))));
        assertThat(answers.getAnswers()).hasSize(2)
                .allSatisfy(a -> assertThat(a.getLower()).isLessThanOrEqualTo(a.getUpper()));
    }

    // The query part, kept in one place: whatever the QueryRequest schema generates.

    /** Gaussian column sums under rho = 0.005. */
    private static QueryRequest columnSums() {
        return new QueryRequest(new GaussianQuery().kind(GaussianQuery.KindEnum.COLUMN_SUMS)
                .mechanism(GaussianQuery.MechanismEnum.GAUSSIAN).rho(new BigDecimal("0.005")));
    }

    /** A Wishart matrix sketch under (0.1, 5e-8)-DP: a release that answers directional variances. */
    private static QueryRequest matrixSketch() {
        return new QueryRequest(new WishartQuery().kind(WishartQuery.KindEnum.SKETCH)
                .mechanism(WishartQuery.MechanismEnum.WISHART).epsilon(new BigDecimal("0.1"))
                .delta(new BigDecimal("5e-8")).params(new WishartParams().nu(new BigDecimal("0.05"))));
    }

    /**
     * Uploads as text/csv. A generated method sends the first media type its request body lists
     * (application/x-matrix-market); a client picks the format of its file by setting the header.
     */
    private DatasetsApi csvUploads(String key) {
        ApiClient client = client(key);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + key)
                .setHeader("Content-Type", "text/csv"));
        return new DatasetsApi(client);
    }

    private static Job await(JobsApi jobs, UUID id) throws ApiException, InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        Job job = jobs.getJob(id);
        while (job.getState() == Job.StateEnum.QUEUED || job.getState() == Job.StateEnum.RUNNING) {
            assertThat(System.nanoTime()).as("job %s did not finish", id).isLessThan(deadline);
            Thread.sleep(20);
            job = jobs.getJob(id);
        }
        return job;
    }

    private static Problem problem(ApiException e) {
        try {
            return io.privmat.client.JSON.getDefault().getMapper().readValue(e.getResponseBody(), Problem.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
            throw new AssertionError(e.getResponseBody(), x);
        }
    }
}
