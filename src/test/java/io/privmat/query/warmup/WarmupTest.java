package io.privmat.query.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.api.FactsJson;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.plan.PlanDocuments;
import io.privmat.query.render.ResultDocuments;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class WarmupTest {

    private static final JsonMapper JSON = JsonMapper.builder().addModule(FactsJson.module()).build();
    private static final MechanismCatalog CATALOG = MechanismCatalog.standard();

    private static ResultDocuments documents() {
        return new ResultDocuments(null, JSON, new PlanDocuments(CATALOG), CATALOG);
    }

    @Test
    void theKernelsRunOnTheSyntheticMatrixUpToTheResultDocument() {
        // The plan must still be valid for the catalogue (a renamed mechanism or parameter would make
        // the warm-up stop with a warning at every start), and its release must render as a PCA result.
        JsonNode document = JSON.readTree(Warmup.run(CATALOG, documents()));
        assertThat(document.get("k").asInt()).isEqualTo(10);
        assertThat(document.get("components").size()).isEqualTo(784);
        assertThat(document.get("components").get(0).size()).isEqualTo(10);
        assertThat(document.get("eigenvalues").size()).isGreaterThanOrEqualTo(10);
        assertThat(document.has("accuracy")).isTrue();
        assertThat(document.has("jobId")).as("no job's or dataset's fields").isFalse();
    }

    /**
     * Closing the context stops the warm-up between kernels and waits for it, so that no BLAS call is
     * in flight when the JVM exits (OpenBLAS's exit handler deadlocked with one, and the JVM hung).
     */
    @Test
    void closingWaitsForTheWarmUpToStop() throws Exception {
        Warmup warmup = new Warmup(true, CATALOG, documents());
        warmup.start();
        assertThat(warmup.running()).isTrue();
        warmup.destroy();
        assertThat(warmup.running()).as("stopped and joined").isFalse();
    }

    @Test
    void aStopRequestEndsTheKernelsEarly() {
        int[] asked = {0};
        Warmup.run(CATALOG, documents(), () -> ++asked[0] > 1);
        assertThat(asked[0]).as("stopped at the second check, not after every round").isEqualTo(2);
    }

    @Test
    void disabledStartsNoThread() {
        new Warmup(false, CATALOG, documents()).start();
        Set<Thread> threads = Thread.getAllStackTraces().keySet();
        assertThat(threads).noneMatch(t -> t.getName().equals("privmat-warmup"));
    }
}
