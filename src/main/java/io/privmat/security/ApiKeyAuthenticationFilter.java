package io.privmat.security;

import io.privmat.api.ProblemResponses;
import io.privmat.json.ProblemProperties;
import io.privmat.problem.DatabaseFailures;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <key>}. A missing header leaves the request anonymous
 * (the rules then answer 401 where a key is needed); a malformed, unknown or revoked key is 401 at
 * once. When the key store cannot be reached the answer is a 503 problem with {@code Retry-After}.
 * The caller is also kept as a request attribute for the audit log.
 */
class ApiKeyAuthenticationFilter extends OncePerRequestFilter {

    static final String CALLER_ATTRIBUTE = ApiKeyAuthenticationFilter.class.getName() + ".caller";

    private final ApiKeyService keys;

    ApiKeyAuthenticationFilter(ApiKeyService keys) {
        this.keys = keys;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader("Authorization");
        if (header == null) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Caller> caller;
        try {
            caller = header.regionMatches(true, 0, "Bearer ", 0, 7)
                    ? keys.authenticate(header.substring(7).strip()) : Optional.empty();
        } catch (RuntimeException e) {
            if (!DatabaseFailures.isUnavailable(e)) {
                throw e;
            }
            // The key cannot be checked now: a 503 the client may retry, not a 401 nor a 500.
            PrivmatException unavailable = DatabaseFailures.unavailable(e);
            ProblemResponses.write(request, response, unavailable.type(), unavailable.getMessage(),
                    unavailable.properties());
            return;
        }
        if (caller.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            ProblemResponses.write(request, response, ProblemType.UNAUTHENTICATED,
                    "The API key is malformed, unknown or revoked.", ProblemProperties.none());
            return;
        }
        var authentication = new UsernamePasswordAuthenticationToken(caller.get(), null,
                List.of(new SimpleGrantedAuthority("ROLE_" + caller.get().role().name())));
        SecurityContextHolder.getContext().setAuthentication(authentication);
        request.setAttribute(CALLER_ATTRIBUTE, caller.get());
        chain.doFilter(request, response);
    }
}
