package io.privmat.security;

import io.privmat.api.ProblemResponses;
import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the free computations requests run on their own threads (issue 36; docs/reliability.md,
 * "Free work and storage"): quotes (planning, and a small strategy computed inline), strategy
 * requests, query submissions (planned before their charge is reserved; they wait for a place),
 * and every free query on a release (analytics post-processing a DP release: nothing is
 * charged, so nothing else limits them but the request rate). At most
 * {@code privmat.security.max-free-requests} run at once per replica,
 * {@code max-free-requests-per-key} of one API key and {@code max-free-requests-per-subject} of
 * one subject; beyond, the request is refused at once (429 {@code computation-quota-exceeded}, or
 * 503 when the replica's limit is reached, both with Retry-After) rather than queued on a thread.
 * The rate limiter bounds how often; this bounds how many at once, so one caller cannot hold every
 * core.
 */
class FreeWorkFilter extends OncePerRequestFilter {

    /**
     * POST /v1/releases/{id}/{query}, /v1/datasets/{id}/queries/quote, .../queries/inverse-quote (many
     * plans), .../queries/dry-run (a release on stand-in data), /v1/datasets/{id}/strategies.
     */
    private static final Pattern FREE = Pattern.compile("/v1/releases/[^/]+/[^/]+"
            + "|/v1/datasets/[^/]+/queries/(quote|inverse-quote|dry-run)|/v1/datasets/[^/]+/strategies");
    /**
     * POST /v1/datasets/{id}/queries: planned in full (workloads, strategies) before the budget check
     * reserves its charge, so free work until then, and free altogether when refused (409). It takes a
     * place like the others, but waits for one (at most {@link #SUBMISSION_WAIT_MILLIS}) instead of
     * being refused at once: a client may send many submissions at once and expect each admitted or
     * refused by the budget.
     */
    private static final Pattern SUBMISSION = Pattern.compile("/v1/datasets/[^/]+/queries");
    static final long SUBMISSION_WAIT_MILLIS = 10_000;
    static final long RETRY_AFTER_SECONDS = 1;

    private final SecuritySettings settings;
    private final Map<String, Integer> byKey = new HashMap<>();
    private final Map<String, Integer> bySubject = new HashMap<>();
    private int total;

    FreeWorkFilter(SecuritySettings settings) {
        this.settings = settings;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Object attribute = request.getAttribute(ApiKeyAuthenticationFilter.CALLER_ATTRIBUTE);
        boolean submission = SUBMISSION.matcher(request.getRequestURI()).matches();
        if (!(attribute instanceof Caller caller) || !"POST".equals(request.getMethod())
                || !(submission || FREE.matcher(request.getRequestURI()).matches())) {
            chain.doFilter(request, response);
            return;
        }
        String key = caller.keyId().toString();
        String subject = caller.subject();
        String refusal = submission ? enterWithin(key, subject, SUBMISSION_WAIT_MILLIS) : enter(key, subject);
        if (refusal != null) {
            ProblemProperties p = ProblemProperties.of("retryAfterSeconds", RETRY_AFTER_SECONDS);
            ProblemResponses.write(request, response, refusal.equals("replica") ? ProblemType.SERVICE_UNAVAILABLE
                    : ProblemType.COMPUTATION_QUOTA_EXCEEDED, refusal.equals("replica")
                    ? "This replica already runs " + settings.maxFreeRequests() + " free computations "
                            + "(privmat.security.max-free-requests); try again shortly."
                    : "This " + refusal + " already runs its limit of free computations at once (privmat.security."
                            + "max-free-requests-per-" + refusal + "); try again when one has finished.", p);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            leave(key, subject);
        }
    }

    /** Takes a place, or says whose limit is reached: "key", "subject" or "replica". */
    private synchronized @org.jspecify.annotations.Nullable String enter(String key, String subject) {
        if (byKey.getOrDefault(key, 0) >= settings.maxFreeRequestsPerKey()) {
            return "key";
        }
        if (bySubject.getOrDefault(subject, 0) >= settings.maxFreeRequestsPerSubject()) {
            return "subject";
        }
        if (total >= settings.maxFreeRequests()) {
            return "replica";
        }
        byKey.merge(key, 1, Integer::sum);
        bySubject.merge(subject, 1, Integer::sum);
        total++;
        return null;
    }

    /** As {@link #enter}, waiting at most {@code millis} for a place. */
    private synchronized @org.jspecify.annotations.Nullable String enterWithin(String key, String subject,
            long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (true) {
            String refusal = enter(key, subject);
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (refusal == null || left <= 0) {
                return refusal;
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return refusal;
            }
        }
    }

    private synchronized void leave(String key, String subject) {
        byKey.merge(key, -1, (a, b) -> a + b == 0 ? null : a + b);
        bySubject.merge(subject, -1, (a, b) -> a + b == 0 ? null : a + b);
        total--;
        notifyAll();
    }
}
