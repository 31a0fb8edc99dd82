package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.InMemoryRatings;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.support.FashionMnist;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Accuracy of private matrix completion (docs/accuracy/completion.md): test RMSE against ε for
 * private Frank–Wolfe (with the service's defaults and with the paper's steps), private SVD, private
 * ALS and the non-private references, on a low-rank ratings matrix ({@link #lowRankTarget}, issue
 * 32's target, and {@link #clipTradeOff}), on Jain–Thakkar–Thakurta's synthetic rank-one protocol
 * (scaled, and at its own scale: {@link #paperScale}) and on Fashion-MNIST with 90% of the pixels
 * hidden; and Hardt–Roth versus randomized response under RATING.
 *
 * <p>Protocol: for every method and ε, the public hyper-parameters are chosen from a fixed grid on a
 * validation split (independent data or mask, noise seed 1000), then the chosen configuration is
 * run {@link #RUNS} times on the test split with noise seeds 1..RUNS; mean and standard deviation
 * are printed. Run one part with
 * {@code ./mvnw -o test -Pbenchmark -Dtest=CompletionAccuracyBenchmark#synthetic}; tables are also
 * appended to target/benchmarks/completion.md.
 */
@Tag("benchmark")
class CompletionAccuracyBenchmark {

    /** -Dcompletion.epsilons=0.1,0.5 runs some rows only (e.g. one JVM per ε on a shared machine). */
    static final double[] EPSILONS = Arrays.stream(System.getProperty("completion.epsilons", "0.1,0.5,1,2,5").split(","))
            .mapToDouble(Double::parseDouble).toArray();
    static final double DELTA = 1e-6;
    /** Test runs per chosen configuration (noise seeds 1..RUNS): -Dcompletion.runs=3 for the largest m. */
    static final int RUNS = Integer.getInteger("completion.runs", 5);
    static final long VALIDATION_NOISE = 1000;

    /** A named configuration: (ε, noise seed) → released model, trained on the given split. */
    record Config(String label, BiFunction<Double, Long, CompletionModel> run) {}

    /** One method: a grid of configurations for a split. */
    interface Method {
        String name();

        List<Config> grid(CompletionFixtures.Split split);
    }

    static void print(String line) {
        System.out.println(line);
        try {
            Path out = Path.of("target/benchmarks/completion.md");
            Files.createDirectories(out.getParent());
            Files.writeString(out, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String f(double x) {
        return String.format(Locale.ROOT, "%.4f", x);
    }

    /**
     * The methods to run: {@code -Dcompletion.methods=fw,fwd,svd,als,ref} (the default: the paper's FW,
     * FW with the service's defaults, SVD, ALS, the non-private references; {@code refals} for the
     * non-private ALS reference alone; {@link #lowRankTarget} also takes {@code fwc} and
     * {@code fwclip}); a subset reruns some columns with the same seeds.
     */
    static boolean wanted(String key) {
        String list = System.getProperty("completion.methods", "fw,fwd,svd,als,ref");
        return List.of(list.split(",")).contains(key);
    }

    static List<Method> selected(Method fw, Method svd, Method als) {
        List<Method> out = new ArrayList<>();
        if (wanted("fw")) {
            out.add(fw);
        }
        if (wanted("fwd")) {
            out.add(frankWolfeDefaults());
        }
        if (wanted("svd")) {
            out.add(svd);
        }
        if (wanted("als")) {
            out.add(als);
        }
        return out;
    }

    /** Tunes on validation, evaluates on test: one table row per ε. */
    static void sweep(String title, List<Method> methods, CompletionFixtures.Split validation,
            CompletionFixtures.Split test) {
        print("\n### " + title + "\n");
        print(String.format(Locale.ROOT, "trivial (midpoint) RMSE: validation %s, test %s", f(validation.trivialRmse()),
                f(test.trivialRmse())));
        print(String.format(Locale.ROOT, "global mean of the training ratings (non-private) RMSE: validation %s, test %s",
                f(validation.globalMeanRmse()), f(test.globalMeanRmse())));
        print(String.format(Locale.ROOT, "per-item mean of the training ratings (non-private) RMSE: validation %s, test %s%n",
                f(validation.itemMeanRmse()), f(test.itemMeanRmse())));
        StringBuilder header = new StringBuilder("| ε |");
        StringBuilder rule = new StringBuilder("|---|");
        for (Method m : methods) {
            header.append(' ').append(m.name()).append(" |");
            rule.append("---|");
        }
        print(header.toString());
        print(rule.toString());
        List<String> chosen = new ArrayList<>();
        for (double eps : EPSILONS) {
            StringBuilder row = new StringBuilder("| " + eps + " |");
            for (Method m : methods) {
                long t0 = System.nanoTime();
                Config best = null;
                double bestRmse = Double.POSITIVE_INFINITY;
                for (Config c : m.grid(validation)) {
                    double r = validation.rmse(c.run().apply(eps, VALIDATION_NOISE));
                    if (r < bestRmse) {
                        bestRmse = r;
                        best = c;
                    }
                }
                String label = best.label();
                Config onTest = m.grid(test).stream().filter(c -> c.label().equals(label)).findFirst().orElseThrow();
                double[] runs = new double[RUNS];
                for (int s = 0; s < RUNS; s++) {
                    runs[s] = test.rmse(onTest.run().apply(eps, (long) s + 1));
                }
                double mean = 0;
                for (double r : runs) {
                    mean += r / RUNS;
                }
                double var = 0;
                for (double r : runs) {
                    var += (r - mean) * (r - mean) / (RUNS - 1);
                }
                row.append(' ').append(f(mean)).append(" ± ").append(String.format(Locale.ROOT, "%.4f", Math.sqrt(var)))
                        .append(" |");
                chosen.add(String.format(Locale.ROOT, "ε = %s, %s: %s (validation %s; %.0f s)", eps, m.name(), label,
                        f(bestRmse), (System.nanoTime() - t0) / 1e9));
            }
            print(row.toString());
        }
        print("\nChosen configurations:\n");
        for (String c : chosen) {
            print("- " + c);
        }
    }

    /**
     * The paper's step schedules worth running for T iterations: at T = 1 both give η₁ = 1 (1/T and
     * 2/(1+1)), so the same run would be paid for twice.
     */
    static FrankWolfeParameters.StepSchedule[] schedules(int iterations) {
        return iterations == 1 ? new FrankWolfeParameters.StepSchedule[] {FrankWolfeParameters.StepSchedule.CONSTANT}
                : new FrankWolfeParameters.StepSchedule[] {FrankWolfeParameters.StepSchedule.CONSTANT,
                        FrankWolfeParameters.StepSchedule.STANDARD};
    }

    /** The paper's private Frank–Wolfe (no clip beyond its bounds) over radii × T × both schedules. */
    static Method frankWolfe(double[] radii, int[] iterations) {
        return frankWolfe(radii, iterations, Double.POSITIVE_INFINITY, false);
    }

    /**
     * The paper's private Frank–Wolfe steps over radii × T (× both schedules, or CONSTANT only), each
     * gradient row clipped to {@code clipFraction}·L (∞: the paper's bounds).
     */
    static Method frankWolfe(double[] radii, int[] iterations, double clipFraction, boolean constantOnly) {
        return new Method() {
            @Override
            public String name() {
                return Double.isInfinite(clipFraction) ? "private FW, paper" : "private FW, paper + clip " + clipFraction
                        + "L";
            }

            @Override
            public List<Config> grid(CompletionFixtures.Split s) {
                List<Config> out = new ArrayList<>();
                for (double k : radii) {
                    for (int t : iterations) {
                        for (FrankWolfeParameters.StepSchedule sch : schedules(t)) {
                            if (constantOnly && sch != FrankWolfeParameters.StepSchedule.CONSTANT) {
                                continue;
                            }
                            FrankWolfeParameters p = FrankWolfeParameters.of(s.domain(), RatingsRelation.USER, k, t)
                                    .withSchedule(sch).withGradientClip(clipFraction * s.domain().rowBound());
                            out.add(new Config(String.format(Locale.ROOT, "k=%.4g, T=%d, %s", k, t, sch),
                                    (eps, seed) -> PrivateFrankWolfeMechanism.forApproxDp(p, eps, DELTA)
                                            .release(s.train(), TestNoiseSources.seeded(seed))));
                        }
                    }
                }
                return out;
            }
        };
    }

    /** Private Frank–Wolfe with the service's defaults (fully corrective, C = L/4, T by the budget rule). */
    static Method frankWolfeDefaults() {
        return new Method() {
            @Override
            public String name() {
                return "private FW, defaults";
            }

            @Override
            public List<Config> grid(CompletionFixtures.Split s) {
                return List.of(new Config("defaults", (eps, seed) -> {
                    FrankWolfeParameters p = FrankWolfeParameters.defaults(s.domain(), RatingsRelation.USER,
                            FrankWolfeParameters.mu(eps, DELTA));
                    return PrivateFrankWolfeMechanism.forApproxDp(p, eps, DELTA).release(s.train(),
                            TestNoiseSources.seeded(seed));
                }));
            }
        };
    }

    /**
     * Fully corrective private Frank–Wolfe over a grid of clips C (as fractions of L) and iteration
     * counts: the trade-off the defaults were chosen from.
     */
    static Method frankWolfeCorrective(double[] clipFractions, int[] iterations) {
        return new Method() {
            @Override
            public String name() {
                return "private FW, fully corrective (best of grid)";
            }

            @Override
            public List<Config> grid(CompletionFixtures.Split s) {
                List<Config> out = new ArrayList<>();
                for (double c : clipFractions) {
                    for (int t : iterations) {
                        FrankWolfeParameters p = FrankWolfeParameters.defaults(s.domain(), RatingsRelation.USER, 1)
                                .withIterations(t).withGradientClip(c * s.domain().rowBound());
                        out.add(new Config(String.format(Locale.ROOT, "C=%sL, T=%d", c, t), (eps, seed) ->
                                PrivateFrankWolfeMechanism.forApproxDp(p, eps, DELTA).release(s.train(),
                                        TestNoiseSources.seeded(seed))));
                    }
                }
                return out;
            }
        };
    }

    static Method svd(int[] ranks, double ridge) {
        return new Method() {
            @Override
            public String name() {
                return "private SVD";
            }

            @Override
            public List<Config> grid(CompletionFixtures.Split s) {
                List<Config> out = new ArrayList<>();
                for (int r : ranks) {
                    for (SvdCompletionParameters.LocalFit fit : SvdCompletionParameters.LocalFit.values()) {
                        SvdCompletionParameters p = new SvdCompletionParameters(s.domain(), RatingsRelation.USER, r, fit,
                                ridge);
                        out.add(new Config("r=" + r + ", " + fit, (eps, seed) -> PrivateSvdMechanism
                                .forApproxDp(p, eps, DELTA).release(s.train(), TestNoiseSources.seeded(seed))));
                    }
                }
                return out;
            }
        };
    }

    static Method als(int[] ranks, int[] iterations, double[] clips, double[] itemRidges, double userRidge,
            double init) {
        return new Method() {
            @Override
            public String name() {
                return "private ALS";
            }

            @Override
            public List<Config> grid(CompletionFixtures.Split s) {
                List<Config> out = new ArrayList<>();
                for (int r : ranks) {
                    for (int t : iterations) {
                        for (double c : clips) {
                            for (double ir : itemRidges) {
                                AlsParameters p = new AlsParameters(s.domain(), RatingsRelation.USER, r, t, userRidge, ir,
                                        c, init);
                                out.add(new Config(String.format(Locale.ROOT, "r=%d, T=%d, C=%s, λ_v=%s", r, t, c, ir),
                                        (eps, seed) -> DpAlsMechanism.forApproxDp(p, eps, DELTA).release(s.train(),
                                                TestNoiseSources.seeded(seed))));
                            }
                        }
                    }
                }
                return out;
            }
        };
    }

    /** The non-private references: tuned on validation once (no ε), evaluated on test. */
    static void references(String title, List<Config> fwGrid, List<Config> fwTest, List<Config> alsGrid,
            List<Config> alsTest, CompletionFixtures.Split validation, CompletionFixtures.Split test) {
        if (!wanted("ref") && !wanted("refals")) {
            return;
        }
        print("\n" + title + " (non-private references, tuned on validation):\n");
        // "refals": the ALS reference only (the Frank–Wolfe reference's exact eigendecompositions are the slow part).
        for (int which = wanted("ref") ? 0 : 1; which < 2; which++) {
            long t0 = System.nanoTime();
            List<Config> grid = which == 0 ? fwGrid : alsGrid;
            List<Config> onTest = which == 0 ? fwTest : alsTest;
            if (grid.isEmpty()) {
                continue;
            }
            Config best = null;
            double bestRmse = Double.POSITIVE_INFINITY;
            for (Config c : grid) {
                double r = validation.rmse(c.run().apply(1.0, 0L));
                if (r < bestRmse) {
                    bestRmse = r;
                    best = c;
                }
            }
            String label = best.label();
            Config t = onTest.stream().filter(c -> c.label().equals(label)).findFirst().orElseThrow();
            print(String.format(Locale.ROOT, "- non-private %s: test RMSE %s (%s; validation %s; %.0f s)",
                    which == 0 ? "Frank–Wolfe" : "ALS", f(test.rmse(t.run().apply(1.0, 0L))), label, f(bestRmse),
                    (System.nanoTime() - t0) / 1e9));
        }
    }

    static List<Config> nonPrivateFw(CompletionFixtures.Split s, double[] radii, int[] iterations) {
        List<Config> out = new ArrayList<>();
        for (double k : radii) {
            for (int t : iterations) {
                for (FrankWolfeParameters.StepSchedule sch : schedules(t)) {
                    FrankWolfeParameters p = FrankWolfeParameters.of(s.domain(), RatingsRelation.USER, k, t)
                            .withSchedule(sch);
                    out.add(new Config(String.format(Locale.ROOT, "k=%.4g, T=%d, %s", k, t, sch),
                            (eps, seed) -> References.frankWolfe(s.train(), p)));
                }
            }
        }
        return out;
    }

    static List<Config> nonPrivateAls(CompletionFixtures.Split s, int[] ranks, double userRidge, double itemRidge) {
        List<Config> out = new ArrayList<>();
        for (int r : ranks) {
            AlsParameters p = new AlsParameters(s.domain(), RatingsRelation.USER, r, 15, userRidge, itemRidge, 1e9, 1);
            out.add(new Config("r=" + r + ", T=15", (eps, seed) -> References.als(s.train(), p, 1)));
        }
        return out;
    }

    @Test
    void synthetic() {
        int m = Integer.getInteger("completion.users", 50_000);
        int n = 400;
        CompletionFixtures.Split validation = CompletionFixtures.rankOne(m, n, 80, 10, 2);
        CompletionFixtures.Split test = CompletionFixtures.rankOne(m, n, 80, 10, 1);
        // E‖uvᵀ‖_* = E‖u‖·E‖v‖ ≈ √(m/3)·√(n/3) for entries uniform in [−1, 1]: a fact of the protocol.
        double k0 = Math.sqrt(m / 3.0) * Math.sqrt(n / 3.0);
        // Private FW's first step scales each user's projection by k/λ̂′, so k needs a finer grid (factor √2).
        double[] radii = {0.5 * k0, 0.71 * k0, k0, 1.41 * k0, 2 * k0, 2.83 * k0, 4 * k0};
        double[] referenceRadii = {0.5 * k0, k0, 2 * k0, 4 * k0};
        references("Synthetic rank-one, m = " + m, nonPrivateFw(validation, referenceRadii, new int[] {10, 20}),
                nonPrivateFw(test, referenceRadii, new int[] {10, 20}), nonPrivateAls(validation, new int[] {1}, 0.01, 1),
                nonPrivateAls(test, new int[] {1}, 0.01, 1), validation, test);
        sweep("Synthetic rank-one (Jain–Thakkar–Thakurta protocol), m = " + m + ", n = 400, 80 ratings per user, "
                + "10 test ratings per user; test RMSE, mean ± sd over " + RUNS + " noise seeds",
                selected(frankWolfe(radii, new int[] {1, 2, 3, 5, 10}), svd(new int[] {1, 2, 3}, 1e-3),
                        als(new int[] {1, 2}, new int[] {2, 3, 5}, new double[] {0.1, 0.3, 1}, new double[] {1, 100},
                                0.1, 0.1)),
                validation, test);
    }

    /**
     * Jain–Thakkar–Thakurta's synthetic experiment at its own scale (m = 500 000 by default,
     * -Dcompletion.users=50000 for the timing run): a rank-one 400-item matrix with entries in
     * [−1, 1], 80 ratings per user, 4 held-out entries per user split into validation (tuning, noise
     * seed 1000) and test (noise seeds 1..RUNS). The paper's private FW (its Algorithm 1: constant
     * steps, no clip; our tighter analytic-Gaussian σ), k and T tuned on a small grid as the paper
     * tuned them; private FW with the service's defaults; private SVD (r = 1, either local fit) and
     * private ALS (r = 1) tuned likewise; non-private FW. -Dcompletion.clipped=true adds the paper's
     * steps with the rows clipped to L/4 (separates the clip's gain from the schedule's).
     */
    @Test
    void paperScale() {
        int m = Integer.getInteger("completion.users", 500_000);
        int n = 400;
        long t0 = System.nanoTime();
        CompletionFixtures.Split[] halves = CompletionFixtures.rankOne(m, n, 80, 4, 1).halves();
        CompletionFixtures.Split validation = halves[0];
        CompletionFixtures.Split test = halves[1];
        double k0 = Math.sqrt(m / 3.0) * Math.sqrt(n / 3.0);
        // The grids in multiples of k₀ (-Dcompletion.paperRadii, -Dcompletion.referenceRadii) and T
        // (-Dcompletion.paperIterations): the best radius falls from 1.41·k₀ at m = 50 000 towards k₀ as m
        // grows (λ̂′ = λ̂ + √b, and √b does not grow with m while λ̂ does), so the grid spans both.
        double[] radii = Arrays.stream(System.getProperty("completion.paperRadii", "0.71,1,1.41,2").split(","))
                .mapToDouble(x -> Double.parseDouble(x) * k0).toArray();
        int[] iterations = Arrays.stream(System.getProperty("completion.paperIterations", "1,3,10").split(","))
                .mapToInt(Integer::parseInt).toArray();
        double[] referenceRadii = Arrays.stream(System.getProperty("completion.referenceRadii", "1,2").split(","))
                .mapToDouble(x -> Double.parseDouble(x) * k0).toArray();
        List<Config> referenceValidation = nonPrivateFw(validation, referenceRadii, new int[] {10}).stream()
                .filter(c -> c.label().endsWith("CONSTANT")).toList();
        List<Config> referenceTest = nonPrivateFw(test, referenceRadii, new int[] {10}).stream()
                .filter(c -> c.label().endsWith("CONSTANT")).toList();
        references("Paper-scale synthetic, m = " + m, referenceValidation, referenceTest,
                nonPrivateAls(validation, new int[] {1}, 0.01, 1), nonPrivateAls(test, new int[] {1}, 0.01, 1), validation,
                test);
        List<Method> methods = new ArrayList<>();
        if (wanted("fw")) {
            methods.add(frankWolfe(radii, iterations, Double.POSITIVE_INFINITY, true));
        }
        if (Boolean.getBoolean("completion.clipped")) {
            methods.add(frankWolfe(radii, iterations, 0.25, true));
        }
        if (wanted("fwd")) {
            methods.add(frankWolfeDefaults());
        }
        if (wanted("svd")) {
            methods.add(svd(new int[] {1}, 1e-3));
        }
        if (wanted("als")) {
            methods.add(als(new int[] {1}, new int[] {2, 3}, new double[] {0.1, 0.3}, new double[] {100}, 0.1, 0.1));
        }
        sweep("Jain–Thakkar–Thakurta's synthetic experiment at m = " + m + " users, n = 400, 80 ratings per user, "
                + "2 validation and 2 test ratings per user; test RMSE, mean ± sd over " + RUNS + " noise seeds", methods,
                validation, test);
        print(String.format(Locale.ROOT, "(m = %d: %.0f s wall in all)", m, (System.nanoTime() - t0) / 1e9));
    }

    /**
     * The target: a low-rank ratings matrix on a 1..5 scale (rank 3 around 3.5, so four
     * directions counting the offset from the midpoint), m = 40 000 users (-Dcompletion.users),
     * n = 100 items, 5–30 ratings per user (s = 30), 4 held-out entries per user split into validation
     * and test. Private FW with its defaults against private SVD and ALS tuned on validation, the
     * paper's FW tuned likewise (k in multiples of √(mn), both schedules; {@code fwclip}: the same
     * with every gradient row clipped to L/4, which separates the clip's gain from the schedule's), and
     * ({@code fwc}) the clip × T trade-off of the fully corrective schedule, best of its grid.
     * {@code -Dcompletion.methods=fwd,fwc,fw,fwclip,svd,als} runs every column.
     */
    @Test
    void lowRankTarget() {
        int m = Integer.getInteger("completion.users", 40_000);
        CompletionFixtures.Split[] halves = CompletionFixtures.lowRank(m, 100, 3, 5, 30, 4, 1).halves();
        CompletionFixtures.Split validation = halves[0];
        CompletionFixtures.Split test = halves[1];
        // ‖Y − 3‖_* of the protocol is about σ₁ + … + σ₄ of a 40 000 × 100 matrix with entries ≈ 1: k₀ = √(mn).
        double k0 = Math.sqrt((double) m * 100);
        List<Method> methods = new ArrayList<>();
        if (wanted("fwd")) {
            methods.add(frankWolfeDefaults());
        }
        if (wanted("fwc")) {
            methods.add(frankWolfeCorrective(new double[] {0.1, 0.25, 0.5, 1}, new int[] {2, 4, 6, 10}));
        }
        double[] radii = {0.5 * k0, k0, 2 * k0, 4 * k0};
        if (wanted("fw")) {
            methods.add(frankWolfe(radii, new int[] {1, 4, 10}));
        }
        if (wanted("fwclip")) {
            methods.add(frankWolfe(radii, new int[] {1, 4, 10}, 0.25, false));
        }
        if (wanted("svd")) {
            methods.add(svd(new int[] {1, 2, 3, 4, 5, 8}, 1e-3));
        }
        if (wanted("als")) {
            methods.add(als(new int[] {4, 5}, new int[] {2, 3}, new double[] {0.3, 1}, new double[] {100}, 0.1, 0.1));
        }
        sweep("Low-rank ratings (rank 3 on 1..5), m = " + m + " users × 100 items, 5–30 ratings per user, 2 validation "
                + "and 2 test ratings per user; test RMSE, mean ± sd over " + RUNS + " noise seeds", methods, validation,
                test);
    }

    /**
     * The trade-off the defaults were chosen from, on {@link #lowRankTarget}'s data: fully corrective
     * private FW over the clip C (as fractions of L, -Dcompletion.clips) × T (-Dcompletion.iterations),
     * test RMSE for noise seed 1 and, in brackets, how many of the T directions were released (the
     * others noise-dominated). One table per ε.
     */
    @Test
    void clipTradeOff() {
        int m = Integer.getInteger("completion.users", 40_000);
        CompletionFixtures.Split test = CompletionFixtures.lowRank(m, 100, 3, 5, 30, 4, 1).halves()[1];
        double[] clips = Arrays.stream(System.getProperty("completion.clips", "0.05,0.1,0.25,0.5,1").split(","))
                .mapToDouble(Double::parseDouble).toArray();
        int[] iterations = Arrays.stream(System.getProperty("completion.iterations", "2,3,4,5,6,11").split(","))
                .mapToInt(Integer::parseInt).toArray();
        print("\n### Fully corrective private FW, clip × T, low-rank ratings m = " + m + " × 100 (test RMSE, noise seed 1; "
                + "directions released)\n");
        for (double eps : EPSILONS) {
            StringBuilder header = new StringBuilder("| ε = " + eps + " |");
            StringBuilder rule = new StringBuilder("|---|");
            for (int t : iterations) {
                header.append(" T = ").append(t).append(" |");
                rule.append("---|");
            }
            print(header.toString());
            print(rule.toString());
            for (double c : clips) {
                StringBuilder row = new StringBuilder("| C = " + c + "·L |");
                for (int t : iterations) {
                    FrankWolfeParameters p = FrankWolfeParameters.defaults(test.domain(), RatingsRelation.USER, 1)
                            .withIterations(t).withGradientClip(c * test.domain().rowBound());
                    FrankWolfeRelease r = PrivateFrankWolfeMechanism.forApproxDp(p, eps, DELTA).release(test.train(),
                            TestNoiseSources.seeded(1));
                    int used = 0;
                    for (int k = 1; k <= t; k++) {
                        used += TopEigen.norm(r.direction(k)) > 0 ? 1 : 0;
                    }
                    row.append(' ').append(f(test.rmse(r))).append(" (").append(used).append(") |");
                }
                print(row.toString());
            }
            print("");
        }
    }

    /**
     * Fashion-MNIST as a completion benchmark: the 60 000 training images are users, the 784 pixels
     * items, intensities /255 in [0, 1]; each image shows 78 pixels (10%, uniformly at random) and
     * 10 further hidden pixels are the test entries. Validation: the same images under an independent
     * mask.
     */
    static CompletionFixtures.Split fashionMnist(int m, long maskSeed) throws IOException {
        int n = 784;
        int shown = 78;
        int held = 10;
        SplittableRandom random = new SplittableRandom(maskSeed);
        int[] users = new int[m];
        int[] offsets = new int[m + 1];
        int[] items = new int[m * shown];
        double[] ratings = new double[m * shown];
        int[] testOffsets = new int[m + 1];
        int[] testItems = new int[m * held];
        double[] testValues = new double[m * held];
        FashionMnist.forEachImage(m, (i, pixels) -> {
            int[] perm = CompletionFixtures.identity(n);
            CompletionFixtures.sampleFirst(perm, shown + held, random);
            users[i] = i;
            for (int k = 0; k < shown; k++) {
                items[i * shown + k] = perm[k];
                ratings[i * shown + k] = (pixels[perm[k]] & 0xFF) / 255.0;
            }
            for (int k = 0; k < held; k++) {
                testItems[i * held + k] = perm[shown + k];
                testValues[i * held + k] = (pixels[perm[shown + k]] & 0xFF) / 255.0;
            }
            offsets[i + 1] = (i + 1) * shown;
            testOffsets[i + 1] = (i + 1) * held;
        });
        return new CompletionFixtures.Split(new RatingsDomain(n, 0, 1, shown),
                new InMemoryRatings(n, users, offsets, items, ratings), testOffsets, testItems, testValues);
    }

    @Test
    void fashionMnist() throws IOException {
        Assumptions.assumeTrue(FashionMnist.available(), "Fashion-MNIST not installed");
        // -Dcompletion.images=6000 for a short dry run (the first images of the training set).
        int m = Integer.getInteger("completion.images", 60_000);
        CompletionFixtures.Split validation = fashionMnist(m, 2);
        CompletionFixtures.Split test = fashionMnist(m, 1);
        // Nuclear radius scale from a public proxy: a fully observed centred 60 000 × 784 matrix with
        // entries of size ~0.3 and a few dominant directions has ‖Y‖_* of the order of 0.3·√(m·n).
        double k0 = 0.3 * Math.sqrt((double) m * 784);
        // Grids sized to run within the hour on 2 cores shared with other builds (factor-2 steps in k;
        // the first grids, with T up to 10, ranks up to 40 and ALS T up to 5, needed several hours there).
        double[] radii = {0.35 * k0, 0.71 * k0, 1.41 * k0, 2.83 * k0};
        double[] referenceRadii = {k0, 2 * k0, 4 * k0, 8 * k0};
        references("Fashion-MNIST, " + m + " images, 90% hidden", nonPrivateFw(validation, referenceRadii, new int[] {20}),
                nonPrivateFw(test, referenceRadii, new int[] {20}), nonPrivateAls(validation, new int[] {10, 20}, 0.1, 1),
                nonPrivateAls(test, new int[] {10, 20}, 0.1, 1), validation, test);
        sweep("Fashion-MNIST, " + m + " images × 784 pixels, 78 shown per image (90% hidden), 10 hidden test pixels per "
                + "image; test RMSE on [0, 1] intensities, mean ± sd over " + RUNS + " noise seeds",
                selected(frankWolfe(radii, new int[] {1, 4}), svd(new int[] {1, 2, 5, 10, 20}, 1e-2),
                        als(new int[] {5, 10, 20}, new int[] {2}, new double[] {0.3, 1}, new double[] {10, 100},
                                0.1, 0.1)),
                validation, test);
    }

    /** A tall, fully observed, rank-3, incoherent ratings matrix in [1, 5]: 3 + (2/3)·Σ_t a_it·b_jt, a, b uniform in [−1, 1]. */
    static InMemoryRatings tallRatings(int m, int n, long seed, double[] centred) {
        SplittableRandom random = new SplittableRandom(seed);
        int k = 3;
        double[] a = new double[m * k];
        double[] b = new double[n * k];
        for (int i = 0; i < a.length; i++) {
            a[i] = 2 * random.nextDouble() - 1;
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = 2 * random.nextDouble() - 1;
        }
        int[] users = new int[m];
        int[] offsets = new int[m + 1];
        int[] items = new int[m * n];
        double[] ratings = new double[m * n];
        for (int i = 0; i < m; i++) {
            users[i] = i;
            offsets[i + 1] = (i + 1) * n;
            for (int j = 0; j < n; j++) {
                double c = 0;
                for (int t = 0; t < k; t++) {
                    c += a[i * k + t] * b[j * k + t];
                }
                c *= 2.0 / 3;
                items[i * n + j] = j;
                ratings[i * n + j] = 3 + c;
                centred[i * n + j] = c;
            }
        }
        return new InMemoryRatings(n, users, offsets, items, ratings);
    }

    static double relativeError(EntryLevelLowRank.OrientedFactorization f, double[] centred, int m, int n) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double e = f.centredEntry(i, j) - centred[i * n + j];
                num += e * e;
                den += centred[i * n + j] * centred[i * n + j];
            }
        }
        return Math.sqrt(num / den);
    }

    /**
     * Hardt–Roth (range finder on the short side) versus randomized response under RATING: relative
     * Frobenius error of the rank-3 approximation of the centred ratings (1.0 = the all-zero answer,
     * i.e. predicting the midpoint), ratings 1..5 (an entry moves by ≤ 4), δ = 1e-6.
     */
    @Test
    void hardtRothVersusRandomizedResponse() {
        int runs = Integer.getInteger("completion.hrRuns", 3);
        int[][] shapes = {{50_000, 400}, {25_000, 1000}, {50_000, 200}};
        double[] epsilons = {0.5, 1, 2, 4};
        for (int[] shape : shapes) {
            int m = shape[0];
            int n = shape[1];
            double[] centred = new double[m * n];
            InMemoryRatings data = tallRatings(m, n, 7, centred);
            RatingsDomain domain = new RatingsDomain(n, 1, 5, n);
            print(String.format(Locale.ROOT, "%n### RATING, m = %d users × n = %d items, rank 3, fully observed%n", m, n));
            print("| ε | randomized response | Hardt–Roth (p = 2, μ₀ = 1) | HR, shrunk | RR, shrunk | HR orientation | HR pruned |");
            print("|---|---|---|---|---|---|---|");
            for (double eps : epsilons) {
                double rr = 0;
                double hr = 0;
                double hrShrunk = 0;
                double rrShrunk = 0;
                String orientation = "";
                Object pruned = null;
                for (int s = 0; s < runs; s++) {
                    EntryLevelLowRank r = EntryLevelLowRank.randomizedResponse(m, domain, 3, eps, DELTA);
                    rr += relativeError(r.release(data, TestNoiseSources.seeded(100 + s)), centred, m, n) / runs;
                    EntryLevelLowRank h = EntryLevelLowRank.hardtRoth(m, domain, 3, 2, 1, BigDecimal.valueOf(eps),
                            BigDecimal.valueOf(DELTA));
                    EntryLevelLowRank.OrientedFactorization hf = h.release(data, TestNoiseSources.seeded(200 + s));
                    hr += relativeError(hf, centred, m, n) / runs;
                    orientation = hf.orientation().name();
                    pruned = hf.factors().facts().get(FactorizationFacts.PRUNED_FRACTION);
                    hrShrunk += relativeError(h.withShrinkage().release(data, TestNoiseSources.seeded(200 + s)), centred,
                            m, n) / runs;
                    rrShrunk += relativeError(r.withShrinkage().release(data, TestNoiseSources.seeded(100 + s)), centred,
                            m, n) / runs;
                }
                print(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |", eps, f(rr), f(hr), f(hrShrunk),
                        f(rrShrunk), orientation, pruned));
            }
        }
    }
}
