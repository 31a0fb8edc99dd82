package io.privmat.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/** Without PRIVMAT_BOOTSTRAP_ADMIN_KEY the service generates an admin key once and prints it once. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
    "privmat.embedded-postgres.database=bootstrapkey", "privmat.jobs.enabled=false"})
@ExtendWith(OutputCaptureExtension.class)
class BootstrapAdminKeyTest {

    @Autowired
    ApiKeyService keys;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void generatesPrintsAndRegistersAKeyOnlyWhenNoAdminExists(CapturedOutput output) {
        // The context's start generated one: exactly one active generated admin.
        assertThat(jdbc.queryForObject("SELECT count(*) FROM api_key WHERE role = 'ADMIN' AND revoked_at IS NULL "
                + "AND subject = 'bootstrap-admin'", Long.class)).isEqualTo(1);
        int printedAtStart = banners(output);
        assertThat(printedAtStart).isLessThanOrEqualTo(1);
        if (printedAtStart == 1) {
            // At the very end of start-up: after Spring's "Started …" line and the start-up messages
            // of the application-ready listeners (here the BLAS report's line).
            int banner = output.getOut().indexOf("generated an ADMIN API key");
            assertThat(banner).isGreaterThan(output.getOut().indexOf("Started BootstrapAdminKeyTest"))
                    .isGreaterThan(output.getOut().indexOf("BLAS/LAPACK: "));
        }
        BootstrapAdminKey runner = new BootstrapAdminKey(keys, "");
        runner.run(new DefaultApplicationArguments());
        runner.startupFinished();
        assertThat(banners(output)).isEqualTo(printedAtStart); // an admin exists: nothing new
        UUID id = jdbc.queryForObject("SELECT id FROM api_key WHERE role = 'ADMIN' AND revoked_at IS NULL", UUID.class);
        keys.revoke(id);
        runner = new BootstrapAdminKey(keys, "");
        runner.run(new DefaultApplicationArguments());
        assertThat(banners(output)).as("held until start-up is over").isEqualTo(printedAtStart);
        runner.startupFinished();
        assertThat(banners(output)).isEqualTo(printedAtStart + 1);
        runner.startupFinished();
        assertThat(banners(output)).as("printed once").isEqualTo(printedAtStart + 1);
        String printed = output.getOut().lines().map(String::strip).filter(l -> l.startsWith("pm_"))
                .reduce((a, b) -> b).orElseThrow();
        assertThat(keys.authenticate(printed)).get().extracting(Caller::role).isEqualTo(Role.ADMIN);
        // A configured key is registered once, idempotently, and must be long enough.
        keys.bootstrap("configured-admin-key-0123456789");
        keys.bootstrap("configured-admin-key-0123456789");
        assertThat(keys.authenticate("configured-admin-key-0123456789")).isPresent();
        assertThatThrownBy(() -> keys.bootstrap("short")).hasMessageContaining("at least 24 characters");
    }

    private static int banners(CapturedOutput output) {
        return output.getOut().split("generated an ADMIN API key", -1).length - 1;
    }
}
