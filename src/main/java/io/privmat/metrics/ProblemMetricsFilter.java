package io.privmat.metrics;

import io.privmat.api.ProblemResponses;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts problem responses by type. The code writing a problem (the MVC exception handling and the
 * security filters) names its type in a request attribute ({@link ProblemResponses#TYPE_ATTRIBUTE});
 * this filter, outside them all, counts it once the request is done.
 */
final class ProblemMetricsFilter extends OncePerRequestFilter {

    private final ServiceMetrics metrics;

    ProblemMetricsFilter(ServiceMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } finally {
            if (request.getAttribute(ProblemResponses.TYPE_ATTRIBUTE) instanceof String type) {
                metrics.problem(type, response.getStatus());
            }
        }
    }
}
