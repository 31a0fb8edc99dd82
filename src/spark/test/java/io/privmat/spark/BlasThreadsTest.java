package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.privmat.config.NativeBlas;
import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.linalg.FixedPointGram;
import java.nio.file.Path;
import java.util.Iterator;
import org.junit.jupiter.api.Test;

/**
 * OpenBLAS runs one thread per call while any exact-kernel task runs in the JVM, and its own count
 * again once none does — however a task ends, and once a Spark pass returns (skipped where the BLAS
 * is not a multi-threaded OpenBLAS).
 */
class BlasThreadsTest {

    /**
     * OpenBLAS's own count, after checking that no task is still counted: one an earlier test left
     * counted would hold OpenBLAS at one thread, and the assumption would then skip instead of failing.
     */
    private static int own() {
        NativeBlas.install();
        assertThat(BlasThreads.running()).as("tasks still counted before this test").isZero();
        int own = BlasThreads.current();
        assumeTrue(own > 1, "not a multi-threaded OpenBLAS: " + own);
        return own;
    }

    @Test
    void oneThreadWhileAnyTaskRunsThenTheOwnCountAgain() {
        int own = own();
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

    @Test
    void theOwnCountComesBackAfterATaskWithRowsAnEmptyOneAndOneThatThrows() {
        int own = own();
        int[] during = new int[1];
        Iterator<FixedPointGram.State> s = PartitionStatistics.exactSums(3, 1, true, (g, row) -> {
            during[0] = BlasThreads.current();
            for (int i = 0; i < 600; i++) { // more than a block: a dsyrk inside the task
                row[0] = 0.1;
                row[1] = -0.2;
                row[2] = i % 2;
                g.add(row, 0);
            }
        });
        assertThat(s.next().rows()).isEqualTo(600);
        assertThat(during[0]).as("while the task runs").isEqualTo(1);
        assertThat(BlasThreads.current()).as("after a task with rows").isEqualTo(own);
        PartitionStatistics.exactSums(3, 1, true, (g, row) -> {});
        assertThat(BlasThreads.current()).as("after an empty partition").isEqualTo(own);
        assertThatThrownBy(() -> PartitionStatistics.exactSums(3, 1, true, (g, row) -> {
            throw new IllegalStateException("the read failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(BlasThreads.current()).as("after a task that threw").isEqualTo(own);
        assertThat(BlasThreads.running()).as("tasks counted after all three").isZero();
    }

    @Test
    void noTaskIsCountedOnceASparkGramPassReturns() {
        int own = own();
        int d = 5;
        double[][] x = SparkTestData.matrix(600, d, 1, 7);
        Path dir = SparkTestData.tempDir();
        ExternalSchema columns = new ExternalSchema(SparkTestData.write(x, dir, "columns", ExternalSchema.Format.PARQUET,
                4), ExternalSchema.Format.PARQUET, SparkTestData.columns(d), 600L);
        ExternalSchema vector = SparkTestData.writeVector(x, dir, "vector", SparkTestData.Vector.BINARY, 4, 600L);
        for (ExternalSchema schema : new ExternalSchema[] {columns, vector}) {
            SparkDataAccess access = SparkTestData.access(schema,
                    SparkTestData.facts(d, 1, 600L, NeighbouringRelation.REPLACE_ONE), new SparkTestData.Recorder());
            assertThat(access.gram(true).gram()).hasSize(d * d);
            assertThat(BlasThreads.running()).as("tasks counted after the pass over " + schema.location()).isZero();
            assertThat(BlasThreads.current()).as("OpenBLAS's count after the pass").isEqualTo(own);
        }
    }
}
