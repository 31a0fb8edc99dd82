package io.privmat.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collection;
import org.springframework.context.ApplicationContext;
import org.springframework.http.server.RequestPath;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Matches requests that no controller or actuator endpoint handles at all (any method). Such a
 * request, when authenticated, goes on to the dispatcher and answers 404 (the path does not
 * exist) instead of a 403 from the deny-all rule, which would suggest that it exists but the role
 * may not use it. A path that exists with another method is not matched here, so it stays under
 * its role rule (a 405 only reaches callers allowed on the path, a 403 everybody else).
 */
final class UnmappedRoute implements RequestMatcher {

    private final ApplicationContext context;
    private volatile Collection<RequestMappingInfoHandlerMapping> mappings;

    UnmappedRoute(ApplicationContext context) {
        this.context = context;
    }

    @Override
    public boolean matches(HttpServletRequest request) {
        Collection<RequestMappingInfoHandlerMapping> all = mappings;
        if (all == null) {
            all = context.getBeansOfType(RequestMappingInfoHandlerMapping.class).values();
            mappings = all;
        }
        RequestPath previous = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request) : null;
        ServletRequestPathUtils.parseAndCache(request);
        try {
            for (RequestMappingInfoHandlerMapping mapping : all) {
                try {
                    if (mapping.getHandler(request) != null) {
                        return false;
                    }
                } catch (Exception e) {
                    // The path exists with another method or media type: not unmapped.
                    return false;
                }
            }
            return true;
        } finally {
            if (previous == null) {
                ServletRequestPathUtils.clearParsedRequestPath(request);
            } else {
                ServletRequestPathUtils.setParsedRequestPath(previous, request);
            }
        }
    }
}
