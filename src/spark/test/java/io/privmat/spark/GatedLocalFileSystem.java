package io.privmat.spark;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;

/**
 * The local file system ({@code fs.file.impl} in {@link SparkClusterTest}'s executors) with a gate
 * for killing a worker mid-pass without a timer: while the Hadoop property {@value #GATE} names a
 * file that does not exist yet, a Spark task of any partition but 0 waits before it opens a file
 * (at most two minutes). Partition 0 runs; the test's listener sees it finish, kills the worker
 * that ran it, and creates the file. Without the property (or on the driver, where there is no task)
 * it is the plain local file system.
 */
public class GatedLocalFileSystem extends LocalFileSystem {

    static final String GATE = "privmat.test.gate";

    private String gate;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        gate = conf.get(GATE);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        TaskContext task = TaskContext.get();
        if (gate != null && task != null && task.partitionId() != 0) {
            java.nio.file.Path open = java.nio.file.Path.of(gate);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(open) && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted at the test's gate");
                }
            }
        }
        return super.open(f, bufferSize);
    }
}
