package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestParamsTest {

    @Test
    void keepsTheClientsOrderNullsAndNumbersAsGiven() {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("z", new BigDecimal("1.0"));
        raw.put("a", null);
        raw.put("k", 2);
        RequestParams p = RequestParams.of(raw);
        assertThat(p.names()).containsExactly("z", "a", "k");
        assertThat(p.has("a")).isTrue();
        assertThat(p.get("a")).isNull();
        assertThat(p.get("z")).isEqualTo(new BigDecimal("1.0")); // not coerced: 1.0 stays a fraction's text
        assertThat(p.sorted().names()).containsExactly("a", "k", "z");
        assertThat(p.only(List.of("k", "z", "missing")).names()).containsExactly("k", "z");
    }

    @Test
    void isACopyFrozenAllTheWayDown() {
        List<Object> list = new ArrayList<>(List.of(1, 2));
        Map<String, Object> nested = new HashMap<>(Map.of("type", "ALL_RANGE"));
        Map<String, Object> raw = new LinkedHashMap<>(Map.of("workload", nested));
        raw.put("predictors", list);
        RequestParams p = RequestParams.of(raw);
        list.add(3);
        nested.put("k", 1);
        raw.put("late", true);
        assertThat(p.names()).containsExactly("workload", "predictors");
        assertThat(p.get("predictors")).isEqualTo(List.of(1, 2));
        assertThat(p.get("workload")).isEqualTo(Map.of("type", "ALL_RANGE"));
        assertThatThrownBy(() -> ((List<Object>) p.get("predictors")).add(4))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) p.get("workload")).put("k", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(p.with("k", 1).names()).containsExactly("workload", "predictors", "k");
        assertThat(p.names()).containsExactly("workload", "predictors");
    }

    @Test
    void holdsOnlyWhatJsonCarries() {
        assertThatThrownBy(() -> RequestParams.of("when", java.time.Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Instant");
        assertThatThrownBy(() -> RequestParams.of(Map.of("w", Map.of(1, "x"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RequestParams.of("w", RequestParams.of("type", "MARGINALS", "k", 1)).get("w"))
                .isEqualTo(Map.of("type", "MARGINALS", "k", 1));
        assertThat(RequestParams.of(null)).isEqualTo(RequestParams.empty());
    }

    @Test
    void validationStillRefusesWhatItRefused() {
        List<Param> declared = List.of(Param.integer("k", 1, 10, null, "rank"));
        assertThatThrownBy(() -> Params.parse("M", declared, RequestParams.of("k", "1")))
                .isInstanceOf(PlanningException.class);
        assertThatThrownBy(() -> Params.parse("M", declared, RequestParams.of("k", new BigDecimal("1.5"))))
                .isInstanceOf(PlanningException.class);
        assertThatThrownBy(() -> Params.parse("M", declared, RequestParams.of("j", null)))
                .isInstanceOf(PlanningException.class).hasMessageContaining("accepts params k");
        assertThat(Params.parse("M", declared, RequestParams.of("k", 3)).integer("k")).isEqualTo(3);
    }
}
