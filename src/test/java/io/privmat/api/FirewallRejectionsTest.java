package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The reasons given for what the request firewall refuses (the HTTP side: ClientErrorsNot500Test). */
class FirewallRejectionsTest {

    @Test
    void anEmptySegmentIsNamedWhateverTheFirewallSays() {
        assertThat(FirewallRejections.detail("/v1/jobs//result", "The request was rejected because the URL "
                + "contained a potentially malicious String \"//\"")).contains("empty segment").contains("path variable");
    }

    @Test
    void aHeaderOrParameterIsNotEchoed() {
        String detail = FirewallRejections.detail("/v1/datasets", "The request was rejected because the header "
                + "value \"Bearer pm_secret\u0007\" is not allowed.");
        assertThat(detail).contains("header or parameter").doesNotContain("pm_secret");
    }

    @Test
    void otherReasonsArePassedOnBounded() {
        assertThat(FirewallRejections.detail("/v1/a;b", "The request was rejected because the URL contained a "
                + "potentially malicious String \";\"")).endsWith("potentially malicious String \";\"");
        assertThat(FirewallRejections.detail("/x", "y".repeat(5000)))
                .hasSizeLessThan(FirewallRejections.MAX_DETAIL + 100).endsWith("…");
    }
}
