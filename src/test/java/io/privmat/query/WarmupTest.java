package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class WarmupTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theKernelsRunOnTheSyntheticMatrixUpToTheResultDocument() {
        // The plan must still be valid for the catalogue (a renamed mechanism or parameter would make
        // the warm-up stop with a warning at every start), and its release must render as a PCA result.
        JsonNode document = JSON.readTree(Warmup.run(new ResultDocuments(null, JSON)));
        assertThat(document.get("k").asInt()).isEqualTo(10);
        assertThat(document.get("components").size()).isEqualTo(784);
        assertThat(document.get("components").get(0).size()).isEqualTo(10);
        assertThat(document.get("eigenvalues").size()).isGreaterThanOrEqualTo(10);
        assertThat(document.has("accuracy")).isTrue();
        assertThat(document.has("jobId")).as("no job's or dataset's fields").isFalse();
    }

    @Test
    void disabledStartsNoThread() {
        new Warmup(false, new ResultDocuments(null, JSON)).start();
        Set<Thread> threads = Thread.getAllStackTraces().keySet();
        assertThat(threads).noneMatch(t -> t.getName().equals("privmat-warmup"));
    }
}
