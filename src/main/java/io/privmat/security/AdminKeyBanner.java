package io.privmat.security;

import java.time.Duration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

/**
 * Shows a generated admin key ({@link BootstrapAdminKey}) when start-up is over: after Spring has
 * published that the application is ready and every listener of it has run (the BLAS report, the
 * warm-up, springdoc's notices), so that the key is not buried under them.
 */
class AdminKeyBanner implements SpringApplicationRunListener, Ordered {

    AdminKeyBanner(SpringApplication application, String[] args) {}

    @Override
    public void ready(ConfigurableApplicationContext context, Duration timeTaken) {
        context.getBeanProvider(BootstrapAdminKey.class).ifAvailable(BootstrapAdminKey::startupFinished);
    }

    /** After Spring's own run listener, which publishes the ready event. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
