package io.privmat.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

/**
 * Issue 36, item 1: free computations on request threads (quotes, strategy requests, submissions
 * until their charge is reserved, free queries on releases) are bounded per key, per subject and per replica, refused at once with Retry-After
 * beyond; other requests are not counted.
 */
class FreeWorkFilterTest {

    private final FreeWorkFilter filter = new FreeWorkFilter(new SecuritySettings(50, 200, DataSize.ofMegabytes(1),
            DataSize.ofMegabytes(33), 3, 1, 2));
    private final CountDownLatch release = new CountDownLatch(1);

    private static MockHttpServletRequest request(Caller caller, String method, String path) {
        MockHttpServletRequest r = new MockHttpServletRequest(method, path);
        r.setAttribute(ApiKeyAuthenticationFilter.CALLER_ATTRIBUTE, caller);
        return r;
    }

    /** Runs a request whose handler blocks until {@link #release}; returns once it is inside. */
    private void hold(Caller caller, String path) throws InterruptedException {
        CountDownLatch inside = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                filter.doFilter(request(caller, "POST", path), new MockHttpServletResponse(), (req, res) -> {
                    inside.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.setDaemon(true);
        t.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    }

    private MockHttpServletResponse call(Caller caller, String method, String path) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request(caller, method, path), response, (req, res) -> { });
        return response;
    }

    @Test
    void freeComputationsAreBoundedPerKeySubjectAndReplica() throws Exception {
        Caller a1 = new Caller(UUID.randomUUID(), "analyst-a", Role.ANALYST);
        Caller a2 = new Caller(UUID.randomUUID(), "analyst-a", Role.ANALYST);
        Caller a3 = new Caller(UUID.randomUUID(), "analyst-a", Role.ANALYST);
        Caller b = new Caller(UUID.randomUUID(), "analyst-b", Role.ANALYST);
        Caller c = new Caller(UUID.randomUUID(), "analyst-c", Role.ANALYST);
        hold(a1, "/v1/releases/" + UUID.randomUUID() + "/regression");
        MockHttpServletResponse key = call(a1, "POST", "/v1/datasets/" + UUID.randomUUID() + "/queries/quote");
        assertThat(key.getStatus()).as("one at a time per key").isEqualTo(429);
        assertThat(key.getHeader("Retry-After")).isEqualTo("1");
        assertThat(key.getContentAsString()).contains("computation-quota-exceeded", "per-key");
        for (String free : new String[] {"inverse-quote", "dry-run"}) {
            assertThat(call(a1, "POST", "/v1/datasets/" + UUID.randomUUID() + "/queries/" + free).getStatus())
                    .as(free + " is free work too").isEqualTo(429);
        }
        // Not free work: not counted.
        assertThat(call(a1, "GET", "/v1/releases/" + UUID.randomUUID()).getStatus()).isEqualTo(200);
        assertThat(call(a1, "GET", "/v1/datasets/" + UUID.randomUUID() + "/queries").getStatus()).isEqualTo(200);
        hold(a2, "/v1/datasets/" + UUID.randomUUID() + "/strategies");
        MockHttpServletResponse subject = call(a3, "POST", "/v1/releases/" + UUID.randomUUID() + "/low-rank");
        assertThat(subject.getStatus()).as("two at a time per subject").isEqualTo(429);
        assertThat(subject.getContentAsString()).contains("per-subject");
        hold(b, "/v1/releases/" + UUID.randomUUID() + "/directional-variance");
        MockHttpServletResponse replica = call(c, "POST", "/v1/releases/" + UUID.randomUUID() + "/cuts");
        assertThat(replica.getStatus()).as("three at a time per replica").isEqualTo(503);
        assertThat(replica.getHeader("Retry-After")).isEqualTo("1");
        release.countDown();
        int status = 0;
        for (int i = 0; i < 100 && status != 200; i++) {
            Thread.sleep(50);
            status = call(c, "POST", "/v1/releases/" + UUID.randomUUID() + "/cuts").getStatus();
        }
        assertThat(status).as("places are given back").isEqualTo(200);
    }

    /**
     * Review of issue 36, F5: a submission is planned before its charge is reserved (and costs nothing
     * when the budget refuses it), so it takes a place too; it waits for one rather than being refused.
     */
    @Test
    void aSubmissionWaitsForAPlace() throws Exception {
        Caller a = new Caller(UUID.randomUUID(), "analyst-a", Role.ANALYST);
        hold(a, "/v1/datasets/" + UUID.randomUUID() + "/queries/quote");
        AtomicBoolean planned = new AtomicBoolean();
        AtomicInteger status = new AtomicInteger();
        Thread submission = new Thread(() -> {
            MockHttpServletResponse response = new MockHttpServletResponse();
            try {
                filter.doFilter(request(a, "POST", "/v1/datasets/" + UUID.randomUUID() + "/queries"), response,
                        (req, res) -> planned.set(true));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            status.set(response.getStatus());
        });
        submission.start();
        Thread.sleep(300);
        assertThat(planned).as("the key's one place is taken: the submission waits").isFalse();
        assertThat(submission.isAlive()).isTrue();
        release.countDown();
        submission.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(planned).as("then runs").isTrue();
        assertThat(status.get()).isEqualTo(200);
    }
}
