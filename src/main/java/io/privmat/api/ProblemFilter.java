package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.DatabaseFailures;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The last resort for exceptions that escape a servlet filter (authentication, rate limiting,
 * size limits) or the MVC exception handling: they become problem details here instead of the
 * servlet container's error page. A database that cannot be reached is a 503 with
 * {@code Retry-After}; a {@link PrivmatException} keeps its type; anything else is a generic 500
 * whose detail says nothing about the cause. Registered inside the audit filter, so the audited
 * status is the one the client receives.
 */
final class ProblemFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(ProblemFilter.class);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException e) {
            try {
                write(request, response, e);
            } catch (IOException unwritable) {
                // The client is gone: there is nobody to tell.
                log.debug("problem not written: {}", unwritable.getClass().getName());
            }
        }
    }

    static void write(HttpServletRequest request, HttpServletResponse response, Throwable e) throws IOException {
        Throwable cause = e instanceof ServletException && e.getCause() != null ? e.getCause() : e;
        if (response.isCommitted()) {
            // Part of a response is already on its way: nothing sensible can be added to it.
            log.warn("{} after the response was committed at {}", cause.getClass().getName(), request.getRequestURI());
            return;
        }
        response.resetBuffer();
        if (cause instanceof PrivmatException privmat) {
            ProblemResponses.write(request, response, privmat.type(), privmat.getMessage(), privmat.properties());
        } else if (cause instanceof org.apache.tomcat.util.http.InvalidParameterException) {
            // A query string that is not valid percent-encoded UTF-8, read by a filter (never replaced).
            ProblemResponses.write(request, response, ProblemType.MALFORMED_REQUEST, "The query string is not valid: "
                    + "parameters must be percent-encoded UTF-8.", ProblemProperties.none());
        } else if (DatabaseFailures.isUnavailable(cause)) {
            log.warn("database unavailable in a filter: {}", cause.getClass().getName());
            PrivmatException unavailable = DatabaseFailures.unavailable(cause);
            ProblemResponses.write(request, response, unavailable.type(), unavailable.getMessage(),
                    unavailable.properties());
        } else {
            log.error("unexpected {} in a filter at {}", cause.getClass().getName(),
                    cause.getStackTrace().length > 0 ? cause.getStackTrace()[0] : "?");
            ProblemResponses.write(request, response, ProblemType.INTERNAL_ERROR, "The request could not be completed.",
                    ProblemProperties.none());
        }
    }
}
