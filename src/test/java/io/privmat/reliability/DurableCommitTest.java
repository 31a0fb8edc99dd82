package io.privmat.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.support.ApiTest;
import org.junit.jupiter.api.Test;

/** Ledger and job commits are durable: the embedded server waits for the WAL flush (issue 16, item 5). */
class DurableCommitTest extends ApiTest {

    @Test
    void theEmbeddedServerCommitsSynchronouslyWithFsync() {
        assertThat(jdbc.queryForObject("SHOW synchronous_commit", String.class)).isEqualTo("on");
        assertThat(jdbc.queryForObject("SHOW fsync", String.class)).isEqualTo("on");
    }
}
