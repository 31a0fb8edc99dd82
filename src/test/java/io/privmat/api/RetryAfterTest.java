package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Issue 36, item 1: docs/reliability.md promises {@code Retry-After} on every 503. The strategy
 * queue's 503 had none; any 503 written without one (a problem, a filter, the readiness probe) now
 * gets the default, and one that names its own keeps it.
 */
class RetryAfterTest {

    @Test
    void everyServiceUnavailableResponseSaysWhenToRetry() throws Exception {
        for (boolean sendError : new boolean[] {false, true}) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            new RetryAfter.Filter().doFilter(new MockHttpServletRequest("GET", "/actuator/health/readiness"), response,
                    (req, res) -> {
                        var r = (jakarta.servlet.http.HttpServletResponse) res;
                        if (sendError) {
                            r.sendError(503);
                        } else {
                            r.setStatus(503);
                        }
                    });
            assertThat(response.getHeader("Retry-After")).as("sendError " + sendError).isEqualTo("5");
        }
        MockHttpServletResponse own = new MockHttpServletResponse();
        new RetryAfter.Filter().doFilter(new MockHttpServletRequest(), own, (req, res) -> {
            var r = (jakarta.servlet.http.HttpServletResponse) res;
            r.setHeader("Retry-After", "30");
            r.setStatus(503);
        });
        assertThat(own.getHeader("Retry-After")).isEqualTo("30");
        MockHttpServletResponse ok = new MockHttpServletResponse();
        new RetryAfter.Filter().doFilter(new MockHttpServletRequest(), ok,
                (req, res) -> ((jakarta.servlet.http.HttpServletResponse) res).setStatus(409));
        assertThat(ok.getHeader("Retry-After")).isNull();
    }

    @Test
    void aProblemWithStatus503AlwaysCarriesRetryAfterSeconds() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        ProblemResponses.write(new MockHttpServletRequest(), response, ProblemType.SERVICE_UNAVAILABLE, "busy",
                ProblemProperties.none());
        assertThat(response.getHeader("Retry-After")).isEqualTo("5");
        assertThat(response.getContentAsString()).contains("\"retryAfterSeconds\":5");
        assertThat(RetryAfter.withDefault(503, ProblemProperties.of("retryAfterSeconds", 9L)).get("retryAfterSeconds")).isEqualTo(9L);
        assertThat(RetryAfter.withDefault(409, ProblemProperties.none()).isEmpty()).isTrue();
    }
}
