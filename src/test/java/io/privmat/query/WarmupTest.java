package io.privmat.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.Set;
import org.junit.jupiter.api.Test;

class WarmupTest {

    @Test
    void theKernelsRunOnTheSyntheticMatrix() {
        // The plan must still be valid for the catalogue (a renamed mechanism or parameter would make
        // the warm-up stop with a warning at every start).
        assertThatCode(Warmup::run).doesNotThrowAnyException();
    }

    @Test
    void disabledStartsNoThread() {
        new Warmup(false).start();
        Set<Thread> threads = Thread.getAllStackTraces().keySet();
        assertThat(threads).noneMatch(t -> t.getName().equals("privmat-warmup"));
    }
}
