package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.catalog.RequestParams;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

class RequestParamsJsonTest {

    /** As the application reads request bodies (application.yaml: big decimals for fractions). */
    private static final JsonMapper JSON = JsonMapper.builder().addModule(RequestParamsJson.module())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    record Body(@Nullable String mechanism, @Nullable RequestParams params) {}

    @Test
    void readsTheObjectAsAMapIsReadAndWritesItBackInItsOrder() {
        String text = "{\"mechanism\":\"M\",\"params\":{\"z\":1.50,\"a\":null,\"k\":2,\"w\":{\"type\":\"RANGES\","
                + "\"boxes\":[[0,1]]},\"b\":true}}";
        Body body = JSON.readValue(text, Body.class);
        RequestParams p = body.params();
        assertThat(p.names()).containsExactly("z", "a", "k", "w", "b");
        assertThat(p.get("z")).isEqualTo(new BigDecimal("1.50"));
        assertThat(p.get("k")).isEqualTo(2);
        assertThat(p.has("a")).isTrue();
        assertThat(p.get("w")).isEqualTo(Map.of("type", "RANGES", "boxes", List.of(List.of(0, 1))));
        assertThat(JSON.writeValueAsString(body)).isEqualTo(text);
    }

    @Test
    void absentOrNullParamsStayNullAndANonObjectIsRefused() {
        assertThat(JSON.readValue("{\"mechanism\":\"M\"}", Body.class).params()).isNull();
        assertThat(JSON.readValue("{\"params\":null}", Body.class).params()).isNull();
        assertThat(JSON.readValue("{\"params\":{}}", Body.class).params()).isEqualTo(RequestParams.empty());
        assertThatThrownBy(() -> JSON.readValue("{\"params\":[1]}", Body.class)).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> JSON.readValue("{\"params\":\"k=1\"}", Body.class))
                .isInstanceOf(JacksonException.class);
    }
}
