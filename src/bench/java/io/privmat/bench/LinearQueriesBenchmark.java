package io.privmat.bench;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linear.Box;
import io.privmat.mechanism.linear.Domain;
import io.privmat.mechanism.linear.Estimate;
import io.privmat.mechanism.linear.LinearBudget;
import io.privmat.mechanism.linear.LinearMechanism;
import io.privmat.mechanism.linear.LinearQueryException;
import io.privmat.mechanism.linear.LinearQueryPlan;
import io.privmat.mechanism.linear.LinearQueryRelease;
import io.privmat.mechanism.linear.LowRankOptions;
import io.privmat.mechanism.linear.LowRankStrategy;
import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linear.OptimizerOptions;
import io.privmat.mechanism.linear.ProductStrategy;
import io.privmat.mechanism.linear.Strategies;
import io.privmat.mechanism.linear.Strategy;
import io.privmat.mechanism.linear.StrategyCodec;
import io.privmat.mechanism.linear.Workload;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Accuracy and cost of the linear-query mechanisms (docs/accuracy/linear-queries.md). Run one
 * method at a time: {@code ./mvnw -o test -Pbenchmark -Dtest=LinearQueriesBenchmark#referencePoints}
 * (then {@code #accuracy}, {@code #costs}). Each prints markdown tables and appends them to
 * target/benchmarks/linear-queries.md. Seeds: data 7; release r of case c uses seed 1000·c + r. In the
 * accuracy table z = (mean over runs of the per-query MSE − expected MSE) / its standard error (the
 * Low-Rank Mechanism's small deterministic bias is not in the expectation).
 */
@Tag("benchmark")
class LinearQueriesBenchmark {

    /** At least 20 seeded runs per case; more (up to 1000) where a run is cheap. */
    static final int RUNS = 20;

    static int runs(Workload w, long noiseDimension) {
        return (int) Math.max(RUNS, Math.min(1000, 20_000_000L / (w.queries() + noiseDimension)));
    }
    static final double EPSILON = 1;
    static final double RHO = 0.5; // ε²/2 for ε = 1: the zCDP cost of pure ε = 1
    static final Path OUT = Path.of("target", "benchmarks", "linear-queries.md");

    // oned.csv (dpcomp-org/hdmm, experiments/journal): Identity, H2, YuanConvex, SVDB.
    static final Map<String, double[]> ONED = Map.of(
            "all-range 256", new double[] {9.273618495495704, 3.835363996450649, 2.902169221655514, 2.8763585581409346},
            "prefix 256", new double[] {11.335784048754634, 3.1022372719717644, 2.528223367467486, 2.4714459649021547},
            "all-range 1024", new double[] {18.49324200890693, 4.654169977877171, 3.568100282990444, 3.4923407505042805},
            "prefix 1024", new double[] {22.638462845343543, 3.6861586552943884, 3.0652911247160457, 2.9095843877394243});

    static void print(String text) {
        System.out.println(text);
        try {
            Files.createDirectories(OUT.getParent());
            Files.writeString(OUT, text + "\n", java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String f(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        return String.format(Locale.ROOT, Math.abs(v) >= 1000 ? "%.0f" : Math.abs(v) >= 10 ? "%.2f" : "%.4f", v);
    }

    static String load() {
        return String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    static double svdBound(Workload w) {
        int n = w.cells();
        double s = 0;
        for (double v : LinearAlgebra.eigen(w.denseGram(), n).values()) {
            s += Math.sqrt(Math.max(v, 0));
        }
        return Math.sqrt(s * s / n / w.queries());
    }

    record Timed<T>(T value, double seconds, double peakHeapMb) {}

    static <T> Timed<T> timed(Supplier<T> work) {
        System.gc();
        List<MemoryPoolMXBean> heap = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
                heap.add(pool);
            }
        }
        long start = System.nanoTime();
        T value = work.get();
        double seconds = (System.nanoTime() - start) / 1e9;
        double peak = 0;
        for (MemoryPoolMXBean pool : heap) {
            peak += pool.getPeakUsage().getUsed();
        }
        return new Timed<>(value, seconds, peak / (1 << 20));
    }

    /** Per-query RMSE at Gaussian noise σ = 1 per unit of L2 sensitivity (HDMM's rootmse). */
    static double hdmm(Workload w, Strategy s) {
        return Math.sqrt(s.info().objective() / w.queries());
    }

    @Test
    void referencePoints() {
        print("\n## Reference points (HDMM normalisation), load average " + load() + "\n");
        print("| workload | n | identity | H2 | OPTIMIZED (CONVEX) | time | iterations | certified lower bound | SVDB | OPT / SVDB "
                + "| p-Identity (p = n/16) | time | oned.csv: identity, H2, YuanConvex, SVDB |");
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (int n : new int[] {256, 1024}) {
            for (Workload w : List.of(Workload.allRange(Domain.of(n)), Workload.prefix(Domain.of(n)))) {
                String name = w.kind().equals("ALL_RANGE") ? "all-range" : "prefix";
                double id = hdmm(w, Strategies.identity(w));
                double h2 = hdmm(w, Strategies.hierarchical(w));
                Timed<ProductStrategy> opt = timed(() -> Strategies.optimized(w, OptimizerOptions.convex(),
                        OptimizationControl.none()));
                int restarts = n <= 256 ? 4 : 1;
                Timed<ProductStrategy> pid = timed(() -> Strategies.optimized(w, OptimizerOptions.pIdentity()
                        .withRestarts(restarts), OptimizationControl.none()));
                double svdb = svdBound(w);
                double[] ref = ONED.get(name + " " + n);
                double o = hdmm(w, opt.value());
                print(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %.1f s | %d | %s | %s | %.4f | %s | %.1f s (%d restart%s) | %s, %s, %s, %s |",
                        name, n, f(id), f(h2), f(o), opt.seconds(), opt.value().info().iterations(),
                        f(Math.sqrt(opt.value().info().lowerBound() / w.queries())), f(svdb), o / svdb,
                        f(hdmm(w, pid.value())), pid.seconds(), restarts, restarts == 1 ? "" : "s", f(ref[0]),
                        f(ref[1]), f(ref[2]), f(ref[3])));
            }
        }
    }

    record Case(String name, Workload workload) {}

    static double[] data(Domain d, long seed) {
        // 100 000 records: a mixture of two bumps on the flattened cell index plus 10% uniform.
        SplittableRandom r = new SplittableRandom(seed);
        int n = d.cells();
        double[] x = new double[n];
        for (int i = 0; i < 100_000; i++) {
            double u = r.nextDouble();
            int cell;
            if (u < 0.1) {
                cell = r.nextInt(n);
            } else {
                double centre = u < 0.6 ? 0.3 : 0.7;
                double width = u < 0.6 ? 0.08 : 0.03;
                cell = (int) Math.floor((centre + width * r.nextGaussian()) * n);
                cell = Math.max(0, Math.min(n - 1, cell));
            }
            x[cell]++;
        }
        return x;
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (int n : new int[] {256, 1024, 4096}) {
            cases.add(new Case("all ranges, n = " + n, Workload.allRange(Domain.of(n))));
            cases.add(new Case("all prefixes, n = " + n, Workload.prefix(Domain.of(n))));
        }
        cases.add(new Case("2-way marginals, 8×8×8×8", Workload.marginals(Domain.of(8, 8, 8, 8), 2)));
        cases.add(new Case("2-way marginals, 4×4×4×4", Workload.marginals(Domain.of(4, 4, 4, 4), 2)));
        cases.add(new Case("custom random 0/1, 256 × 512", Workload.custom(Domain.of(512), 256, random01(256, 512, 7))));
        cases.add(new Case("custom rank-16 (C·A Gaussian), 512 × 256",
                Workload.custom(Domain.of(256), 512, related(512, 256, 16, 7))));
        return cases;
    }

    static double[] random01(int m, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] w = new double[m * n];
        for (int i = 0; i < w.length; i++) {
            w[i] = r.nextInt(2);
        }
        return w;
    }

    static double[] related(int m, int n, int s, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] c = new double[m * s];
        double[] a = new double[s * n];
        for (int i = 0; i < c.length; i++) {
            c[i] = r.nextGaussian();
        }
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextGaussian();
        }
        double[] w = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int k = 0; k < s; k++) {
                double v = c[i * s + k];
                for (int j = 0; j < n; j++) {
                    w[i * n + j] += v * a[k * n + j];
                }
            }
        }
        return w;
    }

    @Test
    void accuracy() {
        print("\n## Expected and measured per-query RMSE (ε = 1 pure for Laplace mechanisms, ρ = 0.5 for Gaussian "
                + "ones; ADD_REMOVE; seeded runs: at least " + RUNS + ", up to 1000 where cheap), load average " + load() + "\n");
        print("| workload | m | mechanism | expected RMSE | measured RMSE | measured / expected | runs | z | strategy time | note |");
        print("|---|---|---|---|---|---|---|---|---|---|");
        int caseIndex = 0;
        for (Case c : cases()) {
            Workload w = c.workload();
            double[] x = data(w.domain(), 7);
            double[] truth = w.answer(x);
            Map<LinearMechanism, Supplier<Object[]>> plans = new LinkedHashMap<>();
            plans.put(LinearMechanism.LAPLACE_IDENTITY, () -> new Object[] {LinearQueryPlan.of(w,
                    LinearMechanism.LAPLACE_IDENTITY, new LinearBudget.Pure(EPSILON), NeighbouringRelation.ADD_REMOVE,
                    null), 0.0, ""});
            plans.put(LinearMechanism.LAPLACE_WORKLOAD, () -> new Object[] {LinearQueryPlan.of(w,
                    LinearMechanism.LAPLACE_WORKLOAD, new LinearBudget.Pure(EPSILON), NeighbouringRelation.ADD_REMOVE,
                    null), 0.0, ""});
            plans.put(LinearMechanism.HIERARCHICAL, () -> new Object[] {LinearQueryPlan.of(w, LinearMechanism.HIERARCHICAL,
                    new LinearBudget.Pure(EPSILON), NeighbouringRelation.ADD_REMOVE, null), 0.0, "Laplace"});
            plans.put(LinearMechanism.LOW_RANK_MECHANISM, () -> {
                Timed<LowRankStrategy> s = timed(() -> Strategies.lowRank(w, LowRankOptions.defaults(),
                        OptimizationControl.none()));
                String note = s.value().fallback() ? "solver failed its check: fallback L = I"
                        : String.format(Locale.ROOT, "r = %d, Δ_L = %.5f, ‖W − BL‖_F = %.4f", s.value().rank(),
                                s.value().maxColumnL1(), s.value().residualFrobenius());
                return new Object[] {LinearQueryPlan.of(w, LinearMechanism.LOW_RANK_MECHANISM,
                        new LinearBudget.Pure(EPSILON), NeighbouringRelation.ADD_REMOVE, s.value()), s.seconds(), note};
            });
            plans.put(LinearMechanism.GAUSSIAN_IDENTITY, () -> new Object[] {LinearQueryPlan.of(w,
                    LinearMechanism.GAUSSIAN_IDENTITY, new LinearBudget.Rho(RHO), NeighbouringRelation.ADD_REMOVE, null),
                    0.0, ""});
            plans.put(LinearMechanism.OPTIMIZED, () -> {
                boolean huge = w.domain().attributes() == 1 && w.cells() > 2048;
                OptimizerOptions options = huge ? OptimizerOptions.convex().withMaxIterations(8)
                        : OptimizerOptions.convex();
                Timed<ProductStrategy> s = timed(() -> Strategies.optimized(w, options, OptimizationControl.none()));
                String note = String.format(Locale.ROOT, "%d iterations%s%s", s.value().info().iterations(),
                        huge ? " (capped at 8)" : "", Double.isNaN(s.value().info().lowerBound()) ? ""
                                : String.format(Locale.ROOT, ", ≤ %.2f%% above the optimum",
                                        100 * (Math.sqrt(s.value().info().objective() / s.value().info().lowerBound()) - 1)));
                return new Object[] {LinearQueryPlan.of(w, LinearMechanism.OPTIMIZED, new LinearBudget.Rho(RHO),
                        NeighbouringRelation.ADD_REMOVE, s.value()), s.seconds(), note};
            });
            plans.put(null, () -> new Object[] {LinearQueryPlan.of(w, LinearMechanism.HIERARCHICAL,
                    new LinearBudget.Rho(RHO), NeighbouringRelation.ADD_REMOVE, null), 0.0, "Gaussian"});
            for (Map.Entry<LinearMechanism, Supplier<Object[]>> e : plans.entrySet()) {
                caseIndex++;
                String name = e.getKey() == null ? "HIERARCHICAL" : e.getKey().name();
                Object[] built;
                try {
                    built = e.getValue().get();
                } catch (LinearQueryException refused) {
                    print(String.format(Locale.ROOT, "| %s | %d | %s | – | – | – | – | – | – | refused: %s |", c.name(),
                            w.queries(), name, refused.getMessage()));
                    continue;
                }
                LinearQueryPlan plan = (LinearQueryPlan) built[0];
                double expected = plan.expectedError().perQueryRmse();
                double sum = 0;
                double sum2 = 0;
                int runs = runs(w, plan.expectedError().noiseDimension());
                for (int r = 0; r < runs; r++) {
                    LinearQueryRelease release = plan.release(x, TestNoiseSources.seeded(1000L * caseIndex + r));
                    double s = 0;
                    double[] a = release.answers();
                    for (int q = 0; q < a.length; q++) {
                        s += (a[q] - truth[q]) * (a[q] - truth[q]);
                    }
                    sum += s / a.length;
                    sum2 += (s / a.length) * (s / a.length);
                }
                double mse = sum / runs;
                double se = Math.sqrt(Math.max(sum2 / runs - mse * mse, 0) / (runs - 1));
                double measured = Math.sqrt(mse);
                print(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %.3f | %d | %+.2f | %s | %s |", c.name(),
                        w.queries(), name, f(expected), f(measured), measured / expected, runs,
                        (mse - expected * expected) / se,
                        (double) built[1] > 0 ? String.format(Locale.ROOT, "%.1f s", (double) built[1]) : "–",
                        built[2]));
            }
        }
    }

    @Test
    void costs() {
        print("\n## Optimisation time and peak heap, load average " + load() + "\n");
        print("| strategy | workload | n | time | peak heap | iterations | encoded size | decode time |");
        print("|---|---|---|---|---|---|---|---|");
        List<Object[]> jobs = new ArrayList<>();
        for (int n : new int[] {256, 1024, 2048}) {
            jobs.add(new Object[] {"OPTIMIZED", Workload.allRange(Domain.of(n)), OptimizerOptions.convex()});
            jobs.add(new Object[] {"OPTIMIZED", Workload.prefix(Domain.of(n)), OptimizerOptions.convex()});
        }
        jobs.add(new Object[] {"OPTIMIZED (8 iterations)", Workload.prefix(Domain.of(4096)),
                OptimizerOptions.convex().withMaxIterations(8)});
        jobs.add(new Object[] {"OPTIMIZED", Workload.marginals(Domain.of(8, 8, 8, 8), 2), OptimizerOptions.convex()});
        jobs.add(new Object[] {"OPTIMIZED", Workload.marginals(Domain.of(16, 16, 16, 16, 16), 2),
                OptimizerOptions.convex()});
        jobs.add(new Object[] {"OPTIMIZED", Workload.allRange(Domain.of(16, 16, 16)), OptimizerOptions.convex()});
        for (int n : new int[] {128, 256, 512}) {
            jobs.add(new Object[] {"LOW_RANK", Workload.allRange(Domain.of(n)), null});
        }
        for (Object[] job : jobs) {
            Workload w = (Workload) job[1];
            Timed<Strategy> t = timed(() -> job[2] == null
                    ? Strategies.lowRank(w, LowRankOptions.defaults(), OptimizationControl.none())
                    : Strategies.optimized(w, (OptimizerOptions) job[2], OptimizationControl.none()));
            byte[] bytes = StrategyCodec.encode(t.value());
            Timed<Strategy> decoded = timed(() -> StrategyCodec.decode(bytes));
            print(String.format(Locale.ROOT, "| %s | %s %s | %d | %.1f s | %.0f MiB | %d | %.1f MiB | %.2f s |",
                    job[0], w.kind(), w.domain(), w.cells(), t.seconds(), t.peakHeapMb(),
                    t.value().info().iterations(), bytes.length / 1048576.0, decoded.seconds()));
        }
        print("\n## Answering 10⁵ queries, load average " + load() + "\n");
        print("| step | time |");
        print("|---|---|");
        Domain d = Domain.of(16, 16, 16, 16);
        SplittableRandom r = new SplittableRandom(7);
        List<Box> boxes = new ArrayList<>();
        for (int q = 0; q < 100_000; q++) {
            int[] lo = new int[4];
            int[] hi = new int[4];
            for (int i = 0; i < 4; i++) {
                int a = r.nextInt(16);
                int b = r.nextInt(16);
                lo[i] = Math.min(a, b);
                hi[i] = Math.max(a, b);
            }
            boxes.add(Box.of(d, lo, hi));
        }
        Timed<Workload> build = timed(() -> Workload.ranges(d, boxes));
        Workload w = build.value();
        print(String.format(Locale.ROOT, "| build and validate a RANGES workload of 10⁵ boxes on 16⁴ cells | %.2f s |",
                build.seconds()));
        Timed<ProductStrategy> s = timed(() -> Strategies.optimized(w, OptimizerOptions.convex(),
                OptimizationControl.none()));
        print(String.format(Locale.ROOT, "| OPTIMIZED strategy for it (Kronecker, 10⁵ box terms) | %.1f s |", s.seconds()));
        LinearQueryPlan plan = LinearQueryPlan.of(w, LinearMechanism.OPTIMIZED, new LinearBudget.Rho(RHO),
                NeighbouringRelation.ADD_REMOVE, s.value());
        Timed<double[]> std = timed(plan::standardDeviations);
        print(String.format(Locale.ROOT, "| expected error: 10⁵ per-query standard deviations | %.2f s |", std.seconds()));
        double[] x = data(d, 7);
        Timed<LinearQueryRelease> rel = timed(() -> plan.release(x, TestNoiseSources.seeded(3)));
        print(String.format(Locale.ROOT, "| release: measure, noise, estimate x̂, 10⁵ answers W·x̂ | %.2f s |",
                rel.seconds()));
        Estimate e = rel.value().estimate();
        Timed<double[]> answers = timed(() -> w.answer(e.values()));
        print(String.format(Locale.ROOT, "| 10⁵ answers W·x̂ alone (summed-area table) | %.3f s |", answers.seconds()));
        Timed<Double> further = timed(() -> {
            double total = 0;
            for (int q = 0; q < 100_000; q++) {
                total += e.answer(boxes.get(q)).standardDeviation();
            }
            return total;
        });
        print(String.format(Locale.ROOT, "| 10⁵ further box queries from the stored estimate, one by one | %.2f s |",
                further.seconds()));
        Workload big = Workload.allRange(Domain.of(4096));
        ProductStrategy tree = Strategies.hierarchical(big);
        LinearQueryPlan treePlan = LinearQueryPlan.of(big, LinearMechanism.HIERARCHICAL, new LinearBudget.Rho(RHO),
                NeighbouringRelation.ADD_REMOVE, tree);
        Timed<LinearQueryRelease> bigRelease = timed(() -> treePlan.release(data(big.domain(), 7),
                TestNoiseSources.seeded(4)));
        print(String.format(Locale.ROOT, "| HIERARCHICAL release of all %d ranges on 4096 cells (with their standard "
                + "deviations) | %.2f s |", big.queries(), bigRelease.seconds()));
    }
}
