package io.privmat.query.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.mechanism.catalog.InverseQuote;
import io.privmat.mechanism.catalog.PlanLimit;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.query.QueryRequest;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.support.ApiTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * POST /v1/datasets/{id}/queries/inverse-quote over HTTP (docs/accuracy/inverse-quote.md): the budget
 * it returns, sent with the query, is charged exactly what it said and quotes an error within the
 * target; the other mechanisms of the kind are priced too; nothing is charged by asking.
 */
class InverseQuoteApiTest extends ApiTest {

    private static final String ZCDP = "{\"epsilon\":1,\"delta\":1e-6}";

    private static String request(String query, String target) {
        return "{\"query\":" + query + ",\"target\":" + target + "}";
    }

    private long ledgerEntries(String datasetId) {
        return jdbc.queryForObject("SELECT count(*) FROM ledger_entry WHERE dataset_id = ?::uuid", Long.class,
                datasetId);
    }

    @Test
    void theReturnedBudgetMeetsTheTargetAndIsChargedAsQuoted() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        String target = "{\"quantity\":\"eigenvalues\",\"metric\":\"absPerEigenvalue\",\"value\":2000,\"level\":0.95}";
        Response r = postJson("/v1/datasets/" + id + "/queries/inverse-quote",
                request("{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"delta\":1e-7,\"params\":{\"k\":1}}", target));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.get("kind").asString()).isEqualTo("PCA");
        JsonNode requested = body.get("requested");
        assertThat(requested.get("mechanism").asString()).isEqualTo("ANALYZE_GAUSS");
        assertThat(requested.get("reachable").asBoolean()).isTrue();
        assertThat(requested.get("searched").asString()).isEqualTo("EPSILON");
        assertThat(requested.get("smallest").asBoolean()).as("not cut short by the planning limit").isTrue();
        assertThat(requested.get("achieved").get("value").asDouble()).isLessThanOrEqualTo(2000);
        double epsilon = requested.get("budget").get("epsilon").asDouble();
        assertThat(requested.get("budget").get("delta").asDouble()).isEqualTo(1e-7);
        // Every other PCA mechanism for a matrix is priced or says why not (WISHART at ε ≤ 2, EIGEN_SAMPLING pure).
        List<String> others = new java.util.ArrayList<>();
        body.get("alternatives").forEach(a -> others.add(a.get("mechanism").asString()));
        body.get("notComparable").forEach(a -> others.add(a.get("mechanism").asString()));
        assertThat(others).contains("WISHART", "EIGEN_SAMPLING").doesNotContain("ANALYZE_GAUSS");
        assertThat(body.get("cheapest").asString()).isNotBlank();
        assertThat(ledgerEntries(id)).as("asking charges nothing").isZero();

        // Sent with the query, the budget quotes an error within the target and is charged what was said.
        String query = "{\"kind\":\"PCA\",\"mechanism\":\"ANALYZE_GAUSS\",\"epsilon\":" + epsilon
                + ",\"delta\":1e-7,\"params\":{\"k\":1}}";
        JsonNode quote = postJson("/v1/datasets/" + id + "/queries/quote", query).json();
        JsonNode stated = null;
        for (JsonNode e : quote.get("expectedError")) {
            if (e.get("metric").asString().equals("absPerEigenvalue")) {
                stated = e;
            }
        }
        assertThat(stated).isNotNull();
        assertThat(stated.get("value").asDouble()).isLessThanOrEqualTo(2000);
        Response submitted = postJson("/v1/datasets/" + id + "/queries", query);
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        JsonNode job = awaitJob(submitted.json().get("id").asString());
        assertThat(job.get("cost").get("rho").asDouble()).isEqualTo(requested.get("cost").get("rho").asDouble());
    }

    @Test
    void unreachableTargetsAndBadRequestsAreAnswered() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        Response far = postJson("/v1/datasets/" + id + "/queries/inverse-quote", request(
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\"}",
                "{\"quantity\":\"columnSums\",\"metric\":\"absPerEntry\",\"value\":1e-9,\"level\":0.95}"));
        assertThat(far.status()).as(far.toString()).isEqualTo(200);
        assertThat(far.json().get("requested").get("reachable").asBoolean()).isFalse();
        assertThat(far.json().get("requested").get("unreachable").asString()).contains("largest budget");
        JsonNode noBudget = far.json().get("requested").path("budget");
        assertThat(noBudget.isNull() || noBudget.isMissingNode()).as(noBudget.toString()).isTrue();

        Response withEpsilon = postJson("/v1/datasets/" + id + "/queries/inverse-quote", request(
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\",\"epsilon\":1,\"delta\":1e-6}",
                "{\"metric\":\"absPerEntry\",\"value\":10,\"level\":0.95}"));
        assertThat(withEpsilon.status()).isEqualTo(400);
        assertThat(withEpsilon.json().get("parameter").asString()).isEqualTo("query.epsilon");

        Response unstated = postJson("/v1/datasets/" + id + "/queries/inverse-quote", request(
                "{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\"}",
                "{\"metric\":\"absPerEntry\",\"value\":10,\"level\":0.9}"));
        assertThat(unstated.status()).isEqualTo(400);
        assertThat(unstated.json().get("detail").asString()).contains("states no absPerEntry error");

        Response noTarget = postJson("/v1/datasets/" + id + "/queries/inverse-quote",
                "{\"query\":{\"kind\":\"COLUMN_SUMS\",\"mechanism\":\"GAUSSIAN\"}}");
        assertThat(noTarget.status()).isEqualTo(400);
        assertThat(ledgerEntries(id)).isZero();
    }

    @org.springframework.beans.factory.annotation.Autowired
    private QueryService queries;
    @org.springframework.beans.factory.annotation.Autowired
    private DatasetService datasets;

    /**
     * Attack 32, F1: one request's plans are bounded across the requested search and the
     * alternatives. Cut short, the requested answer meets the target but says it may not be the
     * smallest, and the alternatives left are listed as not priced; a limit that allows not even the
     * first plan is a 503 (the limits here are given directly: no timing).
     */
    @Test
    void thePlanLimitCutsTheSearchesShortAndSaysSo() {
        String id = readyMatrix(ZCDP, "REPLACE_ONE");
        Caller caller = new Caller(java.util.UUID.randomUUID(), "owner-a",
                Role.OWNER);
        Dataset dataset = datasets.visible(java.util.UUID.fromString(id), caller);
        QueryRequest query = new QueryRequest("PCA", "ANALYZE_GAUSS", null, new java.math.BigDecimal("1e-7"), null,
                RequestParams.of("k", 1));
        InverseQuote.Target target = new InverseQuote.Target(
                "eigenvalues", "absPerEigenvalue", 0.95, 2000);
        QueryService.Inverse full = queries.inverseQuote(dataset, query, target, caller,
                PlanLimit.none());
        assertThat(full.requested().answer().smallest()).isTrue();
        assertThat(full.alternatives()).isNotEmpty();

        QueryService.Inverse cut = queries.inverseQuote(dataset, query, target, caller,
                PlanLimit.of(1, Long.MAX_VALUE / 4));
        var requested = cut.requested().answer();
        assertThat(requested.reachable()).isTrue();
        assertThat(requested.smallest()).isFalse();
        assertThat(requested.achieved().value()).isLessThanOrEqualTo(2000);
        assertThat(requested.budget().epsilon()).isEqualByComparingTo("100");
        assertThat(cut.alternatives()).isEmpty();
        assertThat(cut.notComparable()).isNotEmpty().allSatisfy(n -> assertThat(n.reason()).startsWith("not priced: "
                + "the request's planning limit (1 plan,"));
        assertThat(cut.notComparable().stream().map(QueryService.NotComparable::mechanism))
                .containsAll(full.alternatives().stream().map(p -> p.answer().mechanism()).toList());

        assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(PrivmatException.class,
                () -> queries.inverseQuote(dataset, query, target, caller, PlanLimit.of(1, 1)))
                .type()).isEqualTo(ProblemType.SERVICE_UNAVAILABLE);
        assertThat(ledgerEntries(id)).isZero();
    }
}
