package io.privmat.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProblemPropertiesTest {

    @Test
    void keepsTheOrderTheProblemStatesAndReplacesInPlace() {
        ProblemProperties p = ProblemProperties.of("parameter", "k", "allowedRange", "1..10").with("reason", "X");
        assertThat(p.names()).containsExactly("parameter", "allowedRange", "reason");
        ProblemProperties q = p.with("parameter", "params.k");
        assertThat(q.names()).containsExactly("parameter", "allowedRange", "reason");
        assertThat(q.get("parameter")).isEqualTo("params.k");
        assertThat(p.get("parameter")).isEqualTo("k");
        Map<String, Object> seen = new LinkedHashMap<>();
        q.forEach(seen::put);
        assertThat(seen).containsExactly(Map.entry("parameter", "params.k"), Map.entry("allowedRange", "1..10"),
                Map.entry("reason", "X"));
    }

    @Test
    void isImmutableAndHoldsOnlyJsonValues() {
        List<String> supported = new ArrayList<>(List.of("text/csv"));
        ProblemProperties p = ProblemProperties.of("supported", supported, "spent",
                ProblemProperties.of("rho", 0.5));
        supported.add("application/x-ndjson");
        assertThat(p.get("supported")).isEqualTo(List.of("text/csv"));
        assertThat(p.get("spent")).isEqualTo(Map.of("rho", 0.5));
        assertThatThrownBy(() -> ((Map<String, Object>) p.asMap()).put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ProblemProperties.of("at", java.time.Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Instant");
        assertThatThrownBy(() -> ProblemProperties.of(Map.of("at", new Object())))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ProblemProperties.of(Map.of())).isSameAs(ProblemProperties.none());
    }
}
