package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.RequestParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Facts and RequestParams are pure-Java types whose JSON form lives in {@link FactsJson} and
 * {@link RequestParamsJson}, modules the Spring mapper carries. A mapper built by hand without them does
 * not fail: it writes Facts as {} and RequestParams as {"empty":false}, silently. So every mapper built
 * by hand in main is either reviewed here (it never writes or reads those types: the reason is listed)
 * or registers the modules; a new one fails this test until someone decides which.
 */
class HandBuiltMappersTest {

    /** Files that build their own mapper, and why they need neither module. */
    static final Map<String, String> REVIEWED = Map.of(
            "src/main/java/io/privmat/api/JsonNumbers.java", "streams numbers and loss documents token by token",
            "src/main/java/io/privmat/api/ProblemErrorReportValve.java", "writes a problem's member map",
            "src/main/java/io/privmat/api/ProblemResponses.java", "writes a problem's member map",
            "src/main/java/io/privmat/dataset/storage/DatasetRepository.java", "dataset schema documents (records)",
            "src/main/java/io/privmat/plan/PlanDocuments.java", "specs (registers RequestParamsJson) and loss "
                    + "documents; never Facts");

    @Test
    void aPlainMapperWritesTheTypedValuesWrongly() {
        JsonMapper plain = JsonMapper.builder().build();
        assertThat(plain.writeValueAsString(Facts.builder(NoiseFacts.VOCABULARY).put(NoiseFacts.SIGMA, 2.0).build()))
                .as("why this test exists").doesNotContain("sigma");
        assertThat(plain.writeValueAsString(RequestParams.of("k", 1))).doesNotContain("\"k\"");
        JsonMapper withModules = JsonMapper.builder().addModule(FactsJson.module()).addModule(RequestParamsJson.module())
                .build();
        assertThat(withModules.writeValueAsString(RequestParams.of("k", 1))).isEqualTo("{\"k\":1}");
    }

    @Test
    void everyHandBuiltMapperIsReviewedOrCarriesTheModules() throws IOException {
        TreeSet<String> unreviewed = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                boolean builds = text.contains("JsonMapper.builder()") || text.contains("new JsonMapper(")
                        || text.contains("new ObjectMapper(");
                boolean modules = text.contains("FactsJson.module()") && text.contains("RequestParamsJson.module()");
                if (builds && !modules && !REVIEWED.containsKey(f.toString())) {
                    unreviewed.add(f.toString());
                }
            }
        }
        assertThat(unreviewed).as("mappers built by hand without FactsJson and RequestParamsJson (review them and "
                + "list the reason in REVIEWED, or register the modules)").isEmpty();
    }
}
