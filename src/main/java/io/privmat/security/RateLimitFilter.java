package io.privmat.security;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.privmat.api.ProblemResponses;
import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.web.filter.OncePerRequestFilter;

/** Per-key token buckets (Bucket4j, per replica): 429 with Retry-After when a key exceeds its rate. */
class RateLimitFilter extends OncePerRequestFilter {

    private final SecuritySettings settings;
    private final Map<UUID, Bucket> buckets = new ConcurrentHashMap<>();

    RateLimitFilter(SecuritySettings settings) {
        this.settings = settings;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Object attribute = request.getAttribute(ApiKeyAuthenticationFilter.CALLER_ATTRIBUTE);
        if (attribute instanceof Caller caller) {
            Bucket bucket = buckets.computeIfAbsent(caller.keyId(), id -> Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity(settings.burst())
                            .refillGreedy(settings.requestsPerSecond(), Duration.ofSeconds(1)).build())
                    .build());
            ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                long seconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
                response.setHeader("Retry-After", Long.toString(seconds));
                ProblemResponses.write(request, response, ProblemType.RATE_LIMITED, "This API key exceeded "
                        + settings.requestsPerSecond() + " requests per second (burst " + settings.burst() + ").",
                        ProblemProperties.of("retryAfterSeconds", seconds));
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
