package io.privmat.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.DatasetRows;
import io.privmat.dataset.DatasetService;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.LinearAlgebraOps;
import io.privmat.mechanism.linalg.SymmetricEigen;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.noise.DiscreteGaussianSampler;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.query.execution.StoredRows;
import io.privmat.support.ApiTest;
import io.privmat.support.FashionMnist;
import io.privmat.support.Python;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Where a RANDOMIZED_RESPONSE job's time goes (issue 21, the randomized-response row): Fashion-MNIST
 * 60 000 × 784 uploaded as float64 .npy (rows clipped to norm 1), k = 10, ε = 1, δ = 1e-6.
 *
 * <ol>
 * <li>The release's phases, timed by running its steps with the same calls and the same seeded
 * noise as {@link RandomizedResponseMechanism#release} (the harness checks that its v equals the
 * mechanism's): per pass, the time spent waiting for chunks, the exact noise, the Gram (pass 1) or
 * u's product (pass 2); the eigendecomposition. Two read paths, rounds alternating: "before", each
 * pass one streaming query read and decoded on the job's thread (as main read it), and "after", the
 * job's read path ({@code StoredDataAccess.rows}: a reader one chunk ahead, the first pass's chunks
 * kept for the second); also the number of stored-chunk queries the job's path makes.</li>
 * <li>The mechanism itself on both paths (production ChaCha20), two passes replaying the noise; the
 * mechanism drawing the noise once and holding the noisy rows (one pass of the job's read path, what
 * the job runs where the rows fit a quarter of the heap; checked to give the same release for a
 * seed); the whole job over HTTP (submit → result document); and numpy's input perturbation on the
 * same .npy (src/bench/python/end_to_end_numpy.py rr, as in {@link EndToEndBenchmark}), alternating
 * in every round.</li>
 * <li>The exact sampler on one thread for the release's grid plan: with the production ChaCha20
 * source, with the same keystream words drawn beforehand and replayed from memory (the sampling
 * arithmetic alone; the samples are checked equal), and the keystream alone; bytes allocated per
 * sample. For comparison only, the JDK's ChaCha20 and AES/CTR (AES-NI) keystream rates.</li>
 * </ol>
 * Run: {@code ./mvnw -o test -Pbenchmark -Dtest=RandomizedResponseBreakdownBenchmark}
 * ({@code -Dprivmat.bench.rounds=…}, default 3; {@code -Dprivmat.bench.phases=false} times only the
 * two-pass and one-draw releases, the job and numpy, without the phases, the "before" read path and
 * the sampler); writes target/benchmarks/rr-breakdown.txt.
 * docs/benchmarks.md, "Randomized response end to end".
 */
@Tag("benchmark")
@TestPropertySource(properties = "privmat.embedded-postgres.database=bench_rr_breakdown")
class RandomizedResponseBreakdownBenchmark extends ApiTest {

    private static final int ROWS = 60_000;
    private static final int K = 10;
    private static final String RR = "{\"kind\":\"LOW_RANK\",\"mechanism\":\"RANDOMIZED_RESPONSE\",\"epsilon\":1,"
            + "\"delta\":1e-6,\"params\":{\"k\":10}}";

    @Autowired
    DatasetRows datasetRows;

    @Autowired
    DatasetService datasets;

    private final StringBuilder report = new StringBuilder();

    @Test
    void breakdown() throws Exception {
        Assumptions.assumeTrue(FashionMnist.available(), "Fashion-MNIST is not installed");
        int rounds = Integer.getInteger("privmat.bench.rounds", 3);
        boolean phases = !"false".equals(System.getProperty("privmat.bench.phases"));
        report.append(String.format(Locale.ROOT, "%d cores; load average before: %s%n",
                Runtime.getRuntime().availableProcessors(), GramKernelBenchmark.loadAverage()));
        Path npy = FashionMnistUploadBenchmark.writeNpy(ROWS).toAbsolutePath();
        Response created = postJson("/v1/datasets", "{\"name\":\"fmnist\",\"kind\":\"MATRIX\",\"rowNormBound\":1,"
                + "\"neighbouring\":\"REPLACE_ONE\",\"budget\":{\"epsilon\":100,\"delta\":1e-6}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        Response up = send(HttpRequest.newBuilder(uri("/v1/datasets/" + id + "/data"))
                .header("Content-Type", "application/x-npy").PUT(HttpRequest.BodyPublishers.ofFile(npy)));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);
        UUID dataset = UUID.fromString(id);
        int d = 784;
        RandomizedResponseMechanism rr = RandomizedResponseMechanism.forApproxDp(ROWS, d, K, 1, 1, 1e-6);
        Supplier<RowStream> before = () -> sequential(dataset);
        AtomicInteger storedReads = new AtomicInteger();
        DatasetRows counted = (DatasetRows) Proxy.newProxyInstance(DatasetRows.class.getClassLoader(),
                new Class<?>[] {DatasetRows.class}, (proxy, method, args) -> {
                    if (method.getName().equals("forEachMatrixChunk")) {
                        storedReads.incrementAndGet();
                    }
                    try {
                        return method.invoke(datasetRows, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Supplier<RowStream> after = () -> StoredRows.of(datasets, counted, dataset).rows(2);

        // The replica gives the mechanism's release for the same seed, on either read path.
        int readsBefore = storedReads.get();
        rr.release(after.get(), TestNoiseSources.seeded(3));
        report.append(String.format(Locale.ROOT, "stored-chunk queries per release on the job's read path: %d%n",
                storedReads.get() - readsBefore));
        Phases check = new Phases();
        double[] replicaV = replica(rr, timed(after.get(), check), d, TestNoiseSources.seeded(3), check);
        assertThat(Arrays.equals(replicaV, rr.release(before.get(), TestNoiseSources.seeded(3)).v())
                && Arrays.equals(replicaV, rr.release(after.get(), TestNoiseSources.seeded(3)).v()))
                .as("the timed steps are the mechanism's, on either read path").isTrue();
        Supplier<RowStream> onePass = () -> StoredRows.of(datasets, counted, dataset).rows(1);
        assertThat(rr.releaseHoldingNoise(onePass.get(), TestNoiseSources.seeded(3)).v())
                .as("one draw, the same release").containsExactly(replicaV);
        Python.assumeAvailable();
        report.append(String.format(Locale.ROOT, "max heap %d MiB; the job's path holds the rows between passes, so draws "
                + "once: %s%n", Runtime.getRuntime().maxMemory() >> 20,
                StoredRows.of(datasets, counted, dataset).holdsRows(2)));

        List<Phases> phasesBefore = new ArrayList<>();
        List<Phases> phasesAfter = new ArrayList<>();
        List<Double> mechanismBefore = new ArrayList<>();
        List<Double> mechanismAfter = new ArrayList<>();
        List<Double> mechanismOnce = new ArrayList<>();
        List<Double> jobs = new ArrayList<>();
        List<Double> numpy = new ArrayList<>();
        job(id); // warm-up
        EndToEndBenchmark.numpy("rr", npy); // warm-up: page cache, numpy's import
        for (int r = 0; r < rounds; r++) {
            long t;
            if (phases) {
                phasesBefore.add(timedReplica(rr, before, d));
                phasesAfter.add(timedReplica(rr, after, d));
                t = System.nanoTime();
                rr.release(before.get(), NoiseSources.secure());
                mechanismBefore.add(seconds(t));
            }
            t = System.nanoTime();
            rr.release(after.get(), NoiseSources.secure());
            mechanismAfter.add(seconds(t));
            t = System.nanoTime();
            rr.releaseHoldingNoise(onePass.get(), NoiseSources.secure());
            mechanismOnce.add(seconds(t));
            jobs.add(job(id));
            numpy.add(EndToEndBenchmark.numpy("rr", npy));
            report.append(String.format(Locale.ROOT, "round %d done, load %s%n", r, GramKernelBenchmark.loadAverage()));
        }
        report.append(String.format(Locale.ROOT, "%nRANDOMIZED_RESPONSE k = %d on %d × %d, %d chunks, grid σ² = %d steps²"
                + " (%d exact samples per pass); medians of %d rounds, seconds; before = each pass one streaming query "
                + "read and decoded on the job's thread (main), after = the job's read path (StoredDataAccess.rows)%n",
                K, ROWS, d, check.chunks, rr.plan().sigmaSquaredNum(), (long) ROWS * d, rounds));
        if (phases) {
            report.append(String.format(Locale.ROOT, "  %-62s %7s %7s%n", "", "before", "after"));
            phases(phasesBefore, phasesAfter);
        }
        if (phases) {
            report.append(String.format(Locale.ROOT, "  %-62s %7.2f %7.2f  %s | %s%n",
                    "RandomizedResponseMechanism.release (two passes)", BenchStats.median(mechanismBefore),
                    BenchStats.median(mechanismAfter), rounded(mechanismBefore), rounded(mechanismAfter)));
        } else {
            report.append(String.format(Locale.ROOT, "  %-62s %7s %7.2f  %s%n", "RandomizedResponseMechanism.release "
                    + "(two passes)", "", BenchStats.median(mechanismAfter), rounded(mechanismAfter)));
        }
        report.append(String.format(Locale.ROOT, "  %-62s %7s %7.2f  %s%n",
                "RandomizedResponseMechanism.releaseHoldingNoise (one draw)", "", BenchStats.median(mechanismOnce),
                rounded(mechanismOnce)));
        report.append(String.format(Locale.ROOT, "  %-62s %7s %7.2f  %s%n", "the job over HTTP (one draw), submit → "
                + "result document", "", BenchStats.median(jobs), rounded(jobs)));
        report.append(String.format(Locale.ROOT, "  %-62s %7s %7.2f  %s%n", "numpy: load + clip + noise + Gram + eigh + U",
                "", BenchStats.median(numpy), rounded(numpy)));
        report.append(String.format(Locale.ROOT, "  job beyond the release (plan check, JSON, u's .npy stored): %.2f s%n",
                BenchStats.median(jobs) - BenchStats.median(mechanismOnce)));
        double np = BenchStats.median(numpy);
        report.append(String.format(Locale.ROOT, "  ratios of medians to numpy: job %.2f; mechanism one draw %.2f, "
                + "two passes (job's read path) %.2f; one draw / two passes %.2f%n", BenchStats.median(jobs) / np,
                BenchStats.median(mechanismOnce) / np, BenchStats.median(mechanismAfter) / np,
                BenchStats.median(mechanismOnce) / BenchStats.median(mechanismAfter)));

        if (phases) {
            sampler(rr.plan());
            keystreams();
        }
        report.append(String.format(Locale.ROOT, "load average after: %s%n", GramKernelBenchmark.loadAverage()));
        System.out.println(report);
        Path out = Path.of("target/benchmarks/rr-breakdown.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
    }

    /** Times of one release's steps, in seconds. */
    private static final class Phases {
        int passes;
        double read1;
        double read2;
        double noise1;
        double gram;
        double eigen;
        double noise2;
        double product;
        double total;
        int chunks;
    }

    private static Phases timedReplica(RandomizedResponseMechanism rr, Supplier<RowStream> rows, int d) {
        Phases p = new Phases();
        long t = System.nanoTime();
        replica(rr, timed(rows.get(), p), d, NoiseSources.secure(), p);
        p.total = seconds(t);
        return p;
    }

    /**
     * The stored chunks as the job read them on main: each pass one streaming query on the job's
     * thread, every chunk decoded to a dense array, nothing kept between passes.
     */
    private RowStream sequential(UUID dataset) {
        return visitor -> datasetRows.forEachMatrixChunk(dataset,
                chunk -> visitor.block(chunk.toDense(), chunk.rowCount(), chunk.firstRow()));
    }

    /** {@code stream} with the time spent outside the visitor (waiting for chunks) added to the pass's read time. */
    private static RowStream timed(RowStream stream, Phases p) {
        return visitor -> {
            long[] inside = {0};
            long start = System.nanoTime();
            stream.forEachBlock((block, count, firstRow) -> {
                long t = System.nanoTime();
                visitor.block(block, count, firstRow);
                inside[0] += System.nanoTime() - t;
            });
            double read = (System.nanoTime() - start - inside[0]) / 1e9;
            if (p.passes++ == 0) {
                p.read1 = read;
            } else {
                p.read2 += read;
            }
        };
    }

    /** RandomizedResponseMechanism.release's steps (d ≤ m) with a timer around each; returns v. */
    private static double[] replica(RandomizedResponseMechanism rr, RowStream rows, int d, NoiseSource random,
            Phases p) {
        GridNoise.GaussianPlan plan = rr.plan();
        NoiseSource.Replayable noise = random.replayable();
        GramAccumulator gram = new GramAccumulator(d);
        NoiseSource first = noise.open();
        double[][] noisy = {new double[0]};
        rows.forEachBlock((block, count, firstRow) -> {
            p.chunks++;
            noisy[0] = noisy[0].length >= count * d ? noisy[0] : new double[count * d];
            long t = System.nanoTime();
            GridNoise.addGaussianParallel(plan, block, 0, count * d, noisy[0], first.split());
            long t2 = System.nanoTime();
            gram.addRows(noisy[0], 0, count);
            p.noise1 += (t2 - t) / 1e9;
            p.gram += seconds(t2);
        });
        long t = System.nanoTime();
        SymmetricEigen e = LinearAlgebra.eigen(gram.result(), d);
        double[] s = new double[K];
        for (int j = 0; j < K; j++) {
            s[j] = Math.sqrt(Math.max(e.values()[j], 0));
        }
        double[] v = e.topVectors(K);
        p.eigen = seconds(t);
        double[] u = new double[ROWS * K];
        NoiseSource second = noise.open();
        int[] at = {0};
        rows.forEachBlock((block, count, firstRow) -> {
            long t1 = System.nanoTime();
            GridNoise.addGaussianParallel(plan, block, 0, count * d, noisy[0], second.split());
            long t2 = System.nanoTime();
            LinearAlgebraOps.multiply(noisy[0], count, d, v, K, u, at[0] * K);
            for (int i = at[0] * K; i < (at[0] + count) * K; i++) {
                int j = i % K;
                u[i] = s[j] > 0 ? u[i] / s[j] : 0;
            }
            at[0] += count;
            p.noise2 += (t2 - t1) / 1e9;
            p.product += seconds(t2);
        });
        return v;
    }

    /**
     * The exact sampler on one thread, the RR plan: production source; the same keystream words
     * replayed from memory (arithmetic only); the keystream alone; allocation per sample.
     */
    private void sampler(GridNoise.GaussianPlan plan) {
        int n = 4_000_000;
        long[] direct = new long[n];
        long[] replayed = new long[n];
        List<Double> withKeystream = new ArrayList<>();
        List<Double> arithmetic = new ArrayList<>();
        List<Double> keystream = new ArrayList<>();
        long allocated = 0;
        int words = 0;
        for (int r = 0; r < 6; r++) {
            Tape recording = new Tape(NoiseSources.secure().split(), n * 4);
            GridNoise.sampler(plan, recording).fill(direct, 0, n);
            words = recording.size();
            NoiseSource source = NoiseSources.secure().split();
            long a0 = threadAllocated();
            long t = System.nanoTime();
            GridNoise.sampler(plan, source).fill(direct, 0, n);
            double with = seconds(t);
            allocated = threadAllocated() - a0;
            Tape replay = recording.replay();
            t = System.nanoTime();
            GridNoise.sampler(plan, replay).fill(replayed, 0, n);
            double alone = seconds(t);
            NoiseSource again = NoiseSources.secure().split();
            t = System.nanoTime();
            long sink = 0;
            for (int i = 0; i < words; i++) {
                sink += again.nextInt();
            }
            double stream = seconds(t);
            assertThat(sink).isNotEqualTo(1);
            if (r > 0) {
                withKeystream.add(with);
                arithmetic.add(alone);
                keystream.add(stream);
            }
        }
        // The replayed words are the recorded ones, so the replayed samples are the recorded fill's.
        Tape recording = new Tape(TestNoiseSources.seeded(9), n * 4);
        GridNoise.sampler(plan, recording).fill(direct, 0, n);
        GridNoise.sampler(plan, recording.replay()).fill(replayed, 0, n);
        assertThat(Arrays.equals(replayed, direct)).as("replayed samples equal the recorded fill's").isTrue();
        double perSample = BenchStats.median(withKeystream) / n * 1e9;
        report.append(String.format(Locale.ROOT, "%nexact sampler, one thread, RR plan, %d samples (medians of 5; load %s):%n",
                n, GramKernelBenchmark.loadAverage()));
        report.append(String.format(Locale.ROOT, "  production (ChaCha20 keystream drawn as it goes): %.1f ns/sample "
                + "(%.2f M/s per core)%n", perSample, 1e3 / perSample));
        report.append(String.format(Locale.ROOT, "  the same keystream words replayed from memory (arithmetic alone): "
                + "%.1f ns/sample (%.0f%%)%n", BenchStats.median(arithmetic) / n * 1e9, 100 * BenchStats.median(arithmetic) / BenchStats.median(withKeystream)));
        report.append(String.format(Locale.ROOT, "  the keystream alone (%.2f bytes/sample, 4-byte reads): %.1f ns/sample "
                + "(%.0f%%)%n", words * 4.0 / n, BenchStats.median(keystream) / n * 1e9, 100 * BenchStats.median(keystream) / BenchStats.median(withKeystream)));
        report.append(String.format(Locale.ROOT, "  allocated by the sampling thread: %.2f bytes/sample%n",
                allocated / (double) n));
    }

    /** The JDK's ChaCha20 and AES-256/CTR keystreams in 64 KiB pieces (measured only; not used). */
    private void keystreams() throws Exception {
        byte[] key = new byte[32];
        NoiseSources.secure().nextLong();
        new java.security.SecureRandom().nextBytes(key);
        byte[] zeros = new byte[1 << 16];
        byte[] out = new byte[1 << 16];
        List<Double> chacha = new ArrayList<>();
        List<Double> aes = new ArrayList<>();
        long bytes = 256L << 20;
        for (int r = 0; r < 6; r++) {
            Cipher c = Cipher.getInstance("ChaCha20");
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new ChaCha20ParameterSpec(new byte[12], 0));
            Cipher a = Cipher.getInstance("AES/CTR/NoPadding");
            a.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
            long t = System.nanoTime();
            for (long done = 0; done < bytes; done += zeros.length) {
                c.update(zeros, 0, zeros.length, out, 0);
            }
            double tc = seconds(t);
            t = System.nanoTime();
            for (long done = 0; done < bytes; done += zeros.length) {
                a.update(zeros, 0, zeros.length, out, 0);
            }
            double ta = seconds(t);
            if (r > 0) {
                chacha.add(bytes / tc / 1e6);
                aes.add(bytes / ta / 1e6);
            }
        }
        report.append(String.format(Locale.ROOT, "%nkeystream, one thread, 64 KiB pieces (medians of 5; load %s): "
                + "JDK ChaCha20 %.0f MB/s, JDK AES-256/CTR %.0f MB/s (measured only: the noise source stays ChaCha20)%n",
                GramKernelBenchmark.loadAverage(), BenchStats.median(chacha), BenchStats.median(aes)));
    }

    /**
     * Recording (with a source): passes its 32-bit words through and keeps them in order (nextLong as
     * two words); replaying ({@link #replay()}): returns the kept words in the same order.
     */
    private static final class Tape implements NoiseSource {
        private final NoiseSource source;
        private int[] words;
        private int size;
        private int at;

        Tape(NoiseSource source, int capacity) {
            this.source = source;
            this.words = new int[capacity];
        }

        Tape replay() {
            Tape replay = new Tape(null, 0);
            replay.words = words;
            replay.size = size;
            return replay;
        }

        int size() {
            return size;
        }

        @Override
        public int nextInt() {
            if (source == null) {
                if (at == size) {
                    throw new IllegalStateException("replay exhausted");
                }
                return words[at++];
            }
            int v = source.nextInt();
            if (size == words.length) {
                words = Arrays.copyOf(words, Math.max(16, 2 * size));
            }
            words[size++] = v;
            return v;
        }

        @Override
        public long nextLong() {
            return ((long) nextInt() << 32) | (nextInt() & 0xFFFFFFFFL);
        }

        @Override
        public NoiseSource split() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Replayable replayable() {
            throw new UnsupportedOperationException();
        }
    }

    private static long threadAllocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** One query, submit → result document received (ApiTest.runQuery), in seconds. */
    private double job(String dataset) {
        long start = System.nanoTime();
        runQuery(dataset, RR, Duration.ofMinutes(10));
        return seconds(start);
    }

    /** The phase lines of the report: medians before | after. */
    private void phases(List<Phases> phasesBefore, List<Phases> phasesAfter) {
        phase("pass 1: waiting for chunks (PostgreSQL read + decode)", phasesBefore, phasesAfter, p -> p.read1);
        phase("pass 1: exact noise (2 cores)", phasesBefore, phasesAfter, p -> p.noise1);
        phase("pass 1: Gram of the noisy block (dsyrk)", phasesBefore, phasesAfter, p -> p.gram);
        phase("eigendecomposition (784 × 784)", phasesBefore, phasesAfter, p -> p.eigen);
        phase("pass 2: waiting for chunks", phasesBefore, phasesAfter, p -> p.read2);
        phase("pass 2: exact noise (2 cores, replayed)", phasesBefore, phasesAfter, p -> p.noise2);
        phase("pass 2: u = Ã·v·diag(1/s)", phasesBefore, phasesAfter, p -> p.product);
        phase("the timed steps together", phasesBefore, phasesAfter, p -> p.total);
    }

    private void phase(String label, List<Phases> before, List<Phases> after, ToDoubleFunction<Phases> time) {
        List<Double> b = before.stream().map(time::applyAsDouble).toList();
        List<Double> a = after.stream().map(time::applyAsDouble).toList();
        report.append(String.format(Locale.ROOT, "  %-62s %7.2f %7.2f  %s | %s%n", label, BenchStats.median(b), BenchStats.median(a),
                rounded(b), rounded(a)));
    }

    static String rounded(List<Double> times) {
        return Arrays.toString(times.stream().mapToDouble(x -> Math.round(x * 100) / 100.0).sorted().toArray());
    }


    static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
