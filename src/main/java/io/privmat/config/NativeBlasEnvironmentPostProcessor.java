package io.privmat.config;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Selects the BLAS/LAPACK library ({@link NativeBlas}) before any bean can touch the linear
 * algebra, with {@code privmat.blas.backend} from the Spring environment. Logging is not set up
 * yet at this point; {@link NativeBlasReport} logs the outcome once the application is ready.
 */
public class NativeBlasEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        NativeBlas.install(environment.getProperty("privmat.blas.backend"));
    }
}
