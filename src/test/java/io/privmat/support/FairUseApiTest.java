package io.privmat.support;

import org.springframework.test.context.TestPropertySource;

/**
 * Base of HTTP tests of the fair-use limits (issue 36) with small quotas, so that a test reaches them
 * with a few requests. One Spring context (and database) shared by every subclass.
 */
@TestPropertySource(properties = {
    "privmat.workloads.max-bytes-per-caller=1KB", "privmat.workloads.max-per-caller=3"})
public abstract class FairUseApiTest extends ApiTest {}
