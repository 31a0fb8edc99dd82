package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.privmat.config.NativeBlas;
import org.junit.jupiter.api.Test;

/**
 * OpenBLAS runs one thread per call while any exact-kernel task runs in the JVM, and its own count
 * again once none does (skipped where the BLAS is not a multi-threaded OpenBLAS).
 */
class BlasThreadsTest {

    @Test
    void oneThreadWhileAnyTaskRunsThenTheOwnCountAgain() {
        NativeBlas.install();
        int own = BlasThreads.current();
        assumeTrue(own > 1, "not a multi-threaded OpenBLAS: " + own);
        BlasThreads.taskStarted();
        try {
            assertThat(BlasThreads.current()).as("one task alone").isEqualTo(1);
            BlasThreads.taskStarted();
            try {
                assertThat(BlasThreads.current()).as("two tasks").isEqualTo(1);
                BlasThreads.taskStarted();
                BlasThreads.taskEnded();
                assertThat(BlasThreads.current()).as("three tasks, then two").isEqualTo(1);
            } finally {
                BlasThreads.taskEnded();
            }
            assertThat(BlasThreads.current()).as("one task left").isEqualTo(1);
        } finally {
            BlasThreads.taskEnded();
        }
        assertThat(BlasThreads.current()).as("no task").isEqualTo(own);
    }
}
