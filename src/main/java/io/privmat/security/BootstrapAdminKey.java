package io.privmat.security;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * On start: registers {@code PRIVMAT_BOOTSTRAP_ADMIN_KEY} as an admin key, or, if it is not set
 * and no admin key exists yet, generates one and prints it once to the console (standard output,
 * not the log) in a short banner. The banner waits for the very end of start-up
 * ({@link AdminKeyBanner}), after Spring's "Started …" line and every other start-up message, so
 * that it is the last thing on the screen.
 */
@Component
class BootstrapAdminKey implements ApplicationRunner {

    private final ApiKeyService keys;
    private final String configured;
    private @Nullable String generated;
    private boolean finished;

    BootstrapAdminKey(ApiKeyService keys, @Value("${privmat.bootstrap-admin-key:}") String configured) {
        this.keys = keys;
        this.configured = configured;
    }

    @Override
    public synchronized void run(ApplicationArguments args) {
        keys.bootstrap(configured).ifPresent(secret -> {
            generated = secret;
            if (finished) {
                print();
            }
        });
    }

    /** Start-up is over: the banner, if a key was generated (and not yet shown). */
    synchronized void startupFinished() {
        finished = true;
        print();
    }

    private void print() {
        if (generated != null) {
            System.out.println("""

                    ==============================================================================
                    privmat generated an ADMIN API key (shown once; store it now):

                        %s

                    Send it as 'Authorization: Bearer <key>'; POST /v1/api-keys creates OWNER and
                    ANALYST keys. Set PRIVMAT_BOOTSTRAP_ADMIN_KEY to supply your own instead.
                    ==============================================================================
                    """.formatted(generated));
            System.out.flush();
            generated = null;
        }
    }
}
