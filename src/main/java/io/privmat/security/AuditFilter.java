package io.privmat.security;

import io.privmat.security.jdbc.AuditRepository;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Records every state-changing call (POST, PUT, PATCH, DELETE) after it completes — including
 * refused ones (401, 403, 404, 409, 429): who, the route, the dataset, when and the status.
 * Runs before Spring Security so that rejected calls are audited too, and outside the problem
 * filter so that the recorded status is the one the client got. On shutdown the database stays up
 * until every request in progress is recorded ({@link AuditDrain}).
 */
class AuditFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(AuditFilter.class);
    private static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final AuditAppender audit;
    private final Clock clock;
    private final AuditDrain drain;

    AuditFilter(AuditRepository audit, Clock clock, AuditDrain drain) {
        this.audit = new AuditAppender(audit);
        this.clock = clock;
        this.drain = drain;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!STATE_CHANGING.contains(request.getMethod()) || !request.getRequestURI().startsWith("/v1/")) {
            chain.doFilter(request, response);
            return;
        }
        drain.enter();
        try {
            chain.doFilter(request, response);
        } finally {
            try {
                record(request, response, response.getStatus());
            } finally {
                drain.leave();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void record(HttpServletRequest request, HttpServletResponse response, int status) {
        try {
            Caller caller = request.getAttribute(ApiKeyAuthenticationFilter.CALLER_ATTRIBUTE) instanceof Caller c ? c : null;
            Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
            String route = pattern != null ? pattern.toString() : truncate(request.getRequestURI());
            Map<String, String> vars = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE)
                    instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
            UUID datasetId = uuid(vars.get("datasetId"));
            if (datasetId == null && route.startsWith("/v1/datasets/{id}")) {
                datasetId = uuid(vars.get("id"));
            }
            String location = response.getHeader("Location");
            if (datasetId == null && "/v1/datasets".equals(route) && location != null) {
                datasetId = uuid(location.substring(location.lastIndexOf('/') + 1));
            }
            String target = vars.getOrDefault("id", vars.getOrDefault("analyst", vars.get("subject")));
            if (target == null && location != null) {
                target = location.substring(location.lastIndexOf('/') + 1);
            }
            audit.append(new AuditRepository.Entry(clock.instant(), caller == null ? null : caller.subject(),
                    caller == null ? null : caller.role().name(), caller == null ? null : caller.keyId(),
                    request.getMethod(), route, datasetId, target, status));
        } catch (RuntimeException e) {
            log.error("audit record failed: {}", e.getClass().getName());
        }
    }

    private static String truncate(String uri) {
        return uri.length() > 300 ? uri.substring(0, 300) : uri;
    }

    private static UUID uuid(String s) {
        try {
            return s == null ? null : UUID.fromString(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
