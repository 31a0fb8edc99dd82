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
 * Reports the active BLAS/LAPACK backend and why it was chosen: one log line per JVM at start-up and
 * a {@code blas} section on {@code /actuator/info}, which needs no key (README "Quick start"): it
 * holds only these facts, with the user's home directory shortened to {@code ~}.
 */
@Configuration(proxyBeanMethods = false)
public class NativeBlasReport {

    private static final Logger LOG = LoggerFactory.getLogger(NativeBlasReport.class);
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    /**
     * The facts shown on /actuator/info and in the start-up line: {@code source} (system, bundled,
     * configured, java), {@code implementation} (e.g. OpenBLAS 0.3.30), {@code reason}, {@code native},
     * {@code binding} (netlib's classes), {@code mode}, and {@code library} and {@code problem} when known.
     */
    public static Map<String, Object> facts() {
        NativeBlas.Selection selection = NativeBlas.install();
        boolean nativeBlas = LinearAlgebra.isNative();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("source", nativeBlas ? selection.source() : "java");
        facts.put("implementation", nativeBlas ? selection.implementation() : NativeBlas.PURE_JAVA);
        facts.put("reason", nativeBlas || selection.library() == null ? selection.reason()
                : selection.reason() + "; netlib could not load it and runs its pure-Java BLAS");
        facts.put("native", nativeBlas);
        facts.put("binding", LinearAlgebra.implementation());
        facts.put("mode", selection.mode());
        if (selection.library() != null && nativeBlas) {
            facts.put("library", homeShortened(selection.library()));
        }
        if (selection.problem() != null) {
            facts.put("problem", selection.problem());
        }
        return facts;
    }

    /** The path with the user's home directory written as {@code ~} (which user runs the service is not shown). */
    static String homeShortened(String path) {
        String home = System.getProperty("user.home");
        if (home != null && home.length() > 1 && (path.equals(home) || path.startsWith(home + "/"))) {
            return "~" + path.substring(home.length());
        }
        return path;
    }

    @EventListener(ApplicationReadyEvent.class)
    public void logOnce() {
        if (LOGGED.compareAndSet(false, true)) {
            NativeBlas.Selection selection = NativeBlas.install();
            Map<String, Object> facts = facts();
            if (LinearAlgebra.isNative()) {
                LOG.info("BLAS/LAPACK: {}, {} ({}); library {}", facts.get("implementation"), facts.get("source"),
                        facts.get("reason"), selection.library() == null ? "from the loader path" : selection.library());
            } else {
                LOG.warn("BLAS/LAPACK: {} (matrix mechanisms run about 10x slower): {}{}", facts.get("implementation"),
                        facts.get("reason"), facts.containsKey("problem") ? "; " + facts.get("problem") : "");
            }
        }
    }

    @Bean
    InfoContributor blasInfoContributor() {
        return builder -> builder.withDetail("blas", facts());
    }
}
