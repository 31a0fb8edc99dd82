package io.privmat.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.privmat.mechanism.linalg.LinearAlgebra;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
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
     * The facts shown on /actuator/info (in this order; {@code library} and {@code problem} left out
     * when unknown) and in the start-up line.
     *
     * @param source system, bundled, configured, or java
     * @param implementation e.g. OpenBLAS 0.3.30
     * @param nativeBlas whether a native library is bound; shown as {@code native}
     * @param binding netlib's classes
     * @param library the native library's path, the home directory written as {@code ~}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Facts(String source, String implementation, String reason,
            @JsonProperty("native") boolean nativeBlas, String binding, String mode, @Nullable String library,
            @Nullable String problem) {}

    /** The facts of the backend this JVM bound. */
    public static Facts facts() {
        NativeBlas.Selection selection = NativeBlas.install();
        boolean nativeBlas = LinearAlgebra.isNative();
        return new Facts(nativeBlas ? selection.source() : "java",
                nativeBlas ? selection.implementation() : NativeBlas.PURE_JAVA,
                nativeBlas || selection.library() == null ? selection.reason()
                        : selection.reason() + "; netlib could not load it and runs its pure-Java BLAS",
                nativeBlas, LinearAlgebra.implementation(), selection.mode(),
                selection.library() != null && nativeBlas ? homeShortened(selection.library()) : null,
                selection.problem());
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
            Facts facts = facts();
            if (LinearAlgebra.isNative()) {
                LOG.info("BLAS/LAPACK: {}, {} ({}); library {}", facts.implementation(), facts.source(),
                        facts.reason(), selection.library() == null ? "from the loader path" : selection.library());
            } else {
                LOG.warn("BLAS/LAPACK: {} (matrix mechanisms run about 10x slower): {}{}", facts.implementation(),
                        facts.reason(), facts.problem() != null ? "; " + facts.problem() : "");
            }
        }
    }

    @Bean
    InfoContributor blasInfoContributor() {
        return builder -> builder.withDetail("blas", facts());
    }
}
