package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.DatabaseFailures;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every 503 says when to retry (docs/reliability.md, "503 means retry"): a problem without its own
 * {@code retryAfterSeconds} gets the default ({@link DatabaseFailures#RETRY_AFTER_SECONDS}), and
 * {@link Filter} adds the header to any 503 that lacks it, whoever wrote it (a filter, the servlet
 * error page, the actuator's readiness probe).
 */
public final class RetryAfter {

    private RetryAfter() {}

    /** The properties of a problem with this status: a 503 always has {@code retryAfterSeconds}. */
    static ProblemProperties withDefault(int status, ProblemProperties properties) {
        if (status != 503 || properties.get("retryAfterSeconds") instanceof Number) {
            return properties;
        }
        return properties.with("retryAfterSeconds", DatabaseFailures.RETRY_AFTER_SECONDS);
    }

    /** Adds {@code Retry-After} to a 503 response that has none. */
    static final class Filter extends OncePerRequestFilter {
        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            chain.doFilter(request, new HttpServletResponseWrapper(response) {
                @Override
                public void setStatus(int sc) {
                    super.setStatus(sc);
                    retryAfter(sc);
                }

                @Override
                public void sendError(int sc) throws IOException {
                    retryAfter(sc);
                    super.sendError(sc);
                }

                @Override
                public void sendError(int sc, String msg) throws IOException {
                    retryAfter(sc);
                    super.sendError(sc, msg);
                }

                private void retryAfter(int sc) {
                    if (sc == 503 && !isCommitted() && getHeader(HttpHeaders.RETRY_AFTER) == null) {
                        setHeader(HttpHeaders.RETRY_AFTER, Long.toString(DatabaseFailures.RETRY_AFTER_SECONDS));
                    }
                }
            });
        }
    }
}
