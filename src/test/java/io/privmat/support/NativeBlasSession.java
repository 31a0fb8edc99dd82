package io.privmat.support;

import io.privmat.config.NativeBlas;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Binds BLAS/LAPACK as the service does ({@link NativeBlas}) before any test runs, so that tests
 * and benchmarks that use the mechanisms without a Spring context get the same backend.
 */
public class NativeBlasSession implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        NativeBlas.install();
    }
}
