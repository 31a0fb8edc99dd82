package io.privmat.config;

import io.privmat.mechanism.linalg.LinearAlgebra;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * Reports the active BLAS/LAPACK backend: one log line per JVM at start-up and a {@code blas}
 * section on {@code /actuator/info}.
 */
@Configuration(proxyBeanMethods = false)
public class NativeBlasReport {

    private static final Logger LOG = LoggerFactory.getLogger(NativeBlasReport.class);
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    /** The facts shown on /actuator/info and in the start-up line. */
    public static Map<String, Object> facts() {
        NativeBlas.Selection selection = NativeBlas.install();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("implementation", LinearAlgebra.implementation());
        facts.put("native", LinearAlgebra.isNative());
        facts.put("source", LinearAlgebra.isNative() ? selection.source() : "java");
        facts.put("mode", selection.mode());
        if (selection.library() != null && LinearAlgebra.isNative()) {
            facts.put("library", selection.library());
        }
        if (selection.problem() != null) {
            facts.put("problem", selection.problem());
        }
        return facts;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void logOnce() {
        if (LOGGED.compareAndSet(false, true)) {
            Map<String, Object> facts = facts();
            if (LinearAlgebra.isNative()) {
                LOG.info("BLAS/LAPACK backend: {} ({} library {})", facts.get("implementation"), facts.get("source"),
                        facts.getOrDefault("library", "from the loader path"));
            } else {
                LOG.warn("BLAS/LAPACK backend: {} (pure Java; matrix mechanisms run about 10x slower){}",
                        facts.get("implementation"),
                        facts.containsKey("problem") ? "; bundled OpenBLAS failed: " + facts.get("problem") : "");
            }
        }
    }

    @Bean
    InfoContributor blasInfoContributor() {
        return builder -> builder.withDetail("blas", facts());
    }
}
