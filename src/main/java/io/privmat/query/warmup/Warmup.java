package io.privmat.query.warmup;

import io.privmat.dataset.ChunkWarmup;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.privacy.AccountingMode;
import io.privmat.query.render.ResultDocuments;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Warms the just-in-time compiler at start-up so that the first data-reading jobs are not the ones
 * that pay for it (docs/benchmarks.md, "Issue 21's table"): on a background thread after the service
 * is ready, the chunk decoding of the read path ({@link ChunkWarmup}), the Gram kernel, and a
 * covariance-type release with its post-processing (exact noise, eigendecomposition, projection) and
 * its result document run a few times on a synthetic matrix. No dataset is read and nothing is
 * released or stored: the synthetic values are a fixed pattern, the noise is drawn from the
 * production source only so that its code is the one compiled. {@code privmat.warmup.enabled}
 * (default true) switches it off.
 *
 * <p>When the context closes, the warm-up stops between kernels and is waited for: OpenBLAS's own
 * exit handler joins its worker threads, and with a BLAS call still in flight on this (daemon)
 * thread the JVM's exit deadlocked in it and never ended (a test JVM hung so after its last test,
 * while the last context's warm-up ran; a SIGTERM right after start would have done the same).
 */
@Component
class Warmup implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(Warmup.class);
    private static final int D = 784;
    private static final int ROWS = 668;
    private static final int ROUNDS = 3;

    /** Longest wait on shutdown for the kernel in progress (one round is well under a second unloaded). */
    private static final long STOP_WAIT_MILLIS = 60_000;

    private final boolean enabled;
    private final MechanismCatalog catalog;
    private final ResultDocuments documents;
    private volatile boolean stopping;
    private volatile @Nullable Thread thread;

    Warmup(@Value("${privmat.warmup.enabled:true}") boolean enabled, MechanismCatalog catalog,
            ResultDocuments documents) {
        this.enabled = enabled;
        this.catalog = catalog;
        this.documents = documents;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        if (!enabled) {
            return;
        }
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpu = threads.getCurrentThreadCpuTime();
            try {
                run(catalog, documents, () -> stopping);
                LOG.info("JIT warm-up done in {} ms ({} ms CPU on its thread)", (System.nanoTime() - start) / 1_000_000,
                        (threads.getCurrentThreadCpuTime() - cpu) / 1_000_000);
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("JIT warm-up stopped: {}", e.toString());
            }
        }, "privmat-warmup");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        this.thread = thread;
        thread.start();
    }

    /** Stops the warm-up between kernels and waits for it (at most {@link #STOP_WAIT_MILLIS}). */
    @Override
    public void destroy() throws InterruptedException {
        stopping = true;
        Thread running = thread;
        if (running != null) {
            running.join(STOP_WAIT_MILLIS);
            if (running.isAlive()) {
                LOG.warn("JIT warm-up still running after {} ms at shutdown", STOP_WAIT_MILLIS);
            }
        }
    }

    /** True while the warm-up's thread runs. */
    boolean running() {
        Thread running = thread;
        return running != null && running.isAlive();
    }

    /** The kernels of a PCA job on a synthetic matrix, {@link #ROUNDS} times; returns the last result document. */
    static String run(MechanismCatalog catalog, ResultDocuments documents) {
        return run(catalog, documents, () -> false);
    }

    /** As {@link #run(MechanismCatalog, ResultDocuments)}, ending early (with what it has) once {@code stop} says so. */
    static String run(MechanismCatalog catalog, ResultDocuments documents, BooleanSupplier stop) {
        ChunkWarmup.run(D);
        double[] block = new double[ROWS * D];
        SplittableRandom pattern = new SplittableRandom(1);
        for (int i = 0; i < block.length; i++) {
            block[i] = pattern.nextDouble() / D;
        }
        PublicFacts facts = new PublicFacts(DataShape.MATRIX, D, null, 1, NeighbouringRelation.ADD_REMOVE,
                AccountingMode.ZCDP);
        Plan plan = catalog.plan("PCA", catalog.warmUpRepresentative().name(), new QueryBudget(BigDecimal.ONE,
                new BigDecimal("1e-6"), null), RequestParams.of("k", 10), facts);
        String document = "";
        for (int round = 0; round < ROUNDS && !stop.getAsBoolean(); round++) {
            GramAccumulator gram = new GramAccumulator(D);
            for (int chunk = 0; chunk < 4; chunk++) {
                if (stop.getAsBoolean()) {
                    return document;
                }
                gram.addRows(block, 0, ROWS);
            }
            double[] result = gram.result();
            if (stop.getAsBoolean()) {
                return document;
            }
            Release release = plan.release(new SyntheticGram(result), NoiseSources.secure());
            document = documents.pcaWithoutHead(plan, (Release.Covariance) release).json();
        }
        return document;
    }

    /** A data access holding only a Gram. */
    private record SyntheticGram(double[] gram) implements DataAccess {

        @Override
        public double[] columnSums() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Gram gram(boolean withSums) {
            return new Gram(gram, new double[withSums ? D : 0]);
        }

        @Override
        public RowStream rows(int passes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EdgeSource edges() {
            throw new UnsupportedOperationException();
        }
    }
}
