package io.privmat;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * openapi.yaml at the top level is the contract: it must equal what the running service serves.
 * Regenerate it deliberately with {@code ./mvnw test -Dtest=OpenApiContractTest -Dprivmat.openapi.write=true}.
 */
class OpenApiContractTest extends ApiTest {

    private static final Path CONTRACT = Path.of("openapi.yaml");

    @Test
    void servedSpecEqualsTheCheckedInContract() throws IOException {
        Response served = get("/v3/api-docs.yaml");
        assertThat(served.status()).isEqualTo(200);
        String spec = normalise(served.text());
        if (Boolean.getBoolean("privmat.openapi.write")) {
            Files.writeString(CONTRACT, spec, StandardCharsets.UTF_8);
        }
        assertThat(CONTRACT).as("openapi.yaml is missing; run with -Dprivmat.openapi.write=true").exists();
        assertThat(normalise(Files.readString(CONTRACT, StandardCharsets.UTF_8)))
                .as("openapi.yaml differs from the served spec; regenerate with -Dprivmat.openapi.write=true "
                        + "and review the diff")
                .isEqualTo(spec);
    }

    @Test
    void swaggerUiIsServed() {
        Response ui = get("/swagger-ui/index.html");
        assertThat(ui.status()).isEqualTo(200);
        assertThat(ui.text()).contains("Swagger UI");
    }

    /**
     * What generated clients and linters need: a 2xx response with its content type on every operation
     * (a 204 has none), errors as problem+json only, unique readable operation ids, an SPDX licence.
     */
    @Test
    void everyOperationIsTypedForGeneratedClients() {
        JsonNode spec = get("/v3/api-docs").json();
        assertThat(spec.at("/info/license/identifier").asString()).isEqualTo("Apache-2.0");
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (var path : spec.get("paths").properties()) {
            for (var op : path.getValue().properties()) {
                String where = op.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey();
                String id = op.getValue().path("operationId").asString("");
                if (!id.matches("[a-z][A-Za-z]+") || !ids.add(id)) {
                    problems.add(where + ": operationId '" + id + "' is not a unique readable name");
                }
                boolean success = false;
                for (var response : op.getValue().get("responses").properties()) {
                    String code = response.getKey();
                    JsonNode content = response.getValue().path("content");
                    if (code.startsWith("2")) {
                        success = true;
                        if (!code.equals("204") && (content.isMissingNode() || content.isEmpty()
                                || content.has("application/problem+json"))) {
                            problems.add(where + ": " + code + " declares no success content type");
                        }
                    } else if (!code.equals("default")
                            && (content.size() != 1 || !content.has("application/problem+json"))) {
                        problems.add(where + ": " + code + " is not application/problem+json only");
                    }
                }
                if (!success) {
                    problems.add(where + ": no 2xx response");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static String normalise(String yaml) {
        String unix = yaml.replace("\r\n", "\n");
        return unix.endsWith("\n") ? unix : unix + "\n";
    }
}
