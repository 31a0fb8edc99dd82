package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.ReleaseMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

class FactsJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().addModule(FactsJson.module())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    /** Facts render as the ordered map of their names did before they were typed, nested or not. */
    @Test
    void factsRenderAsTheirNamesAndValuesInOrder() {
        Facts noise = Facts.builder(NoiseFacts.VOCABULARY).put(NoiseFacts.DISTRIBUTION, "Wishart_d(B²·I, k)")
                .put(NoiseFacts.DEGREES_OF_FREEDOM, 7L).put(NoiseFacts.GRANULARITY, 1.0 / 3).build();
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("distribution", "Wishart_d(B²·I, k)");
        before.put("degreesOfFreedom", 7L);
        before.put("granularity", 1.0 / 3);
        assertThat(JSON.writeValueAsString(noise)).isEqualTo(JSON.writeValueAsString(before));
        assertThat(JSON.writeValueAsString(Map.of("noise", noise)))
                .isEqualTo(JSON.writeValueAsString(Map.of("noise", before)));
        assertThat(JSON.writeValueAsString(Facts.empty(NoiseFacts.VOCABULARY))).isEqualTo("{}");
    }

    /** A stored document read back renders as it was stored (its decimals as written, not re-rounded). */
    @Test
    void storedMetadataReadsBackAndRendersAsStored() {
        String stored = "{\"r\":40,\"floor\":0.000030517578125,\"nu\":0.05,\"b2\":1.0}";
        Facts meta = FactsJson.read(JSON, ReleaseMeta.VOCABULARY, stored);
        assertThat(meta.get(ReleaseMeta.R)).isEqualTo(40);
        assertThat(meta.get(ReleaseMeta.FLOOR)).isEqualTo(3.0517578125E-5);
        assertThat(JSON.writeValueAsString(meta)).isEqualTo(stored);
    }
}
