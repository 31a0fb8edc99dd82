package io.privmat.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.PrivmatApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The container's start without a database URL (the image switches the embedded PostgreSQL off):
 * refused before anything starts, with advice that names SPRING_DATASOURCE_URL and
 * privmat.embedded-postgres.enabled, not Spring's advice to add an embedded H2, HSQL or Derby.
 */
@ExtendWith(OutputCaptureExtension.class)
class NoDatabaseConfiguredTest {

    @Test
    void startingWithoutADatabaseSaysWhichSettingsToGive(CapturedOutput output) {
        SpringApplication application = new SpringApplication(PrivmatApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> application.run("--privmat.embedded-postgres.enabled=false",
                "--spring.datasource.url=")).isInstanceOf(NoDatabaseConfiguredException.class);
        assertThat(output.getAll()).contains("APPLICATION FAILED TO START").contains("SPRING_DATASOURCE_URL")
                .contains("PRIVMAT_EMBEDDED_POSTGRES_ENABLED").contains("privmat.embedded-postgres.enabled")
                .doesNotContain("H2, HSQL or Derby");
    }
}
