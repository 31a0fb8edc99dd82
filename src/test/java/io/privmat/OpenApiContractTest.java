package io.privmat;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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

    private static String normalise(String yaml) {
        String unix = yaml.replace("\r\n", "\n");
        return unix.endsWith("\n") ? unix : unix + "\n";
    }
}
