package io.privmat.security;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * On start: registers {@code PRIVMAT_BOOTSTRAP_ADMIN_KEY} as an admin key, or, if it is not set
 * and no admin key exists yet, generates one and prints it once to the console (standard output,
 * not the log).
 */
@Component
class BootstrapAdminKey implements ApplicationRunner {

    private final ApiKeyService keys;
    private final String configured;

    BootstrapAdminKey(ApiKeyService keys, @Value("${privmat.bootstrap-admin-key:}") String configured) {
        this.keys = keys;
        this.configured = configured;
    }

    @Override
    public void run(ApplicationArguments args) {
        keys.bootstrap(configured).ifPresent(secret -> System.out.println("""

                ==============================================================================
                privmat generated an ADMIN API key (shown once; store it now):

                    %s

                Use it as 'Authorization: Bearer <key>' to create OWNER and ANALYST keys with
                POST /v1/api-keys. Set PRIVMAT_BOOTSTRAP_ADMIN_KEY to supply your own instead.
                ==============================================================================
                """.formatted(secret)));
    }
}
