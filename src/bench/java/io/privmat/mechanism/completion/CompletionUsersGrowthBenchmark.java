package io.privmat.mechanism.completion;

import static io.privmat.mechanism.completion.CompletionAccuracyBenchmark.print;

import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Where does private Frank–Wolfe overtake private SVD? The same synthetic rank-one protocol
 * (n = 400, 80 ratings per user) as the number of users m grows towards Jain–Thakkar–Thakurta's
 * 500 000: Frank–Wolfe's noise is fixed while its signal grows like m. Each method gets its best
 * configuration of a small grid *on the test data itself* (an oracle choice, equally optimistic for
 * all), at ε = 1 and 5, δ = 1e-6, noise seed 1. Run with
 * {@code ./mvnw -o test -Pbenchmark -Dbenchmark.heap=6g -Dtest=CompletionUsersGrowthBenchmark};
 * {@code -Dcompletion.growthUsers=50000,200000} picks the sizes. Rows are also appended to
 * target/benchmarks/completion.md.
 */
@Tag("benchmark")
class CompletionUsersGrowthBenchmark {

    @Test
    void frankWolfeVersusSvdAsUsersGrow() {
        int[] users = Arrays.stream(System.getProperty("completion.growthUsers", "50000,200000,500000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        // A smaller Frank–Wolfe grid for the large m: -Dcompletion.growthRadii=1,1.41,2
        // -Dcompletion.growthIterations=1,3,10 -Dcompletion.growthSchedules=CONSTANT.
        double[] radii = Arrays.stream(System.getProperty("completion.growthRadii", "0.5,0.71,1,1.41,2,2.83,4").split(","))
                .mapToDouble(Double::parseDouble).toArray();
        int[] iterations = Arrays.stream(System.getProperty("completion.growthIterations", "1,2,3,5,10").split(","))
                .mapToInt(Integer::parseInt).toArray();
        List<String> schedules = List.of(System.getProperty("completion.growthSchedules", "CONSTANT,STANDARD").split(","));
        print("\n### Private FW versus private SVD as m grows (n = 400, 80 ratings per user, oracle-tuned, noise seed 1; FW grid k ∈ "
                + Arrays.toString(radii) + "·k₀, T ∈ " + Arrays.toString(iterations) + ", " + schedules + ")\n");
        print("| m | ε | private FW (best of grid) | private SVD, rescaled projection | private SVD, least squares "
                + "| private ALS | non-private FW |");
        print("|---|---|---|---|---|---|---|");
        for (int m : users) {
            long t0 = System.nanoTime();
            CompletionFixtures.Split s = CompletionFixtures.rankOne(m, 400, 80, 2, 1);
            double k0 = Math.sqrt(m / 3.0) * Math.sqrt(400 / 3.0);
            double reference = Double.POSITIVE_INFINITY;
            for (double kf : new double[] {1, 2}) {
                FrankWolfeParameters p = FrankWolfeParameters.of(s.domain(), RatingsRelation.USER, kf * k0, 10);
                reference = Math.min(reference, s.rmse(References.frankWolfe(s.train(), p)));
            }
            for (double eps : Arrays.stream(System.getProperty("completion.growthEpsilons", "1,5").split(","))
                    .mapToDouble(Double::parseDouble).toArray()) {
                double fw = Double.POSITIVE_INFINITY;
                String fwLabel = "";
                for (double kf : radii) {
                    for (int t : iterations) {
                        for (FrankWolfeParameters.StepSchedule sch : CompletionAccuracyBenchmark.schedules(t)) {
                            if (!schedules.contains(sch.name())) {
                                continue;
                            }
                            FrankWolfeParameters p = FrankWolfeParameters.of(s.domain(), RatingsRelation.USER, kf * k0, t)
                                    .withSchedule(sch);
                            double r = s.rmse(PrivateFrankWolfeMechanism.forApproxDp(p, eps, 1e-6).release(s.train(),
                                    TestNoiseSources.seeded(1)));
                            if (r < fw) {
                                fw = r;
                                fwLabel = String.format(Locale.ROOT, "k=%.1f·k₀, T=%d, %s", kf, t, sch);
                            }
                        }
                    }
                }
                double[] svd = new double[2];
                for (SvdCompletionParameters.LocalFit fit : SvdCompletionParameters.LocalFit.values()) {
                    SvdCompletionParameters p = new SvdCompletionParameters(s.domain(), RatingsRelation.USER, 1, fit, 1e-3);
                    svd[fit.ordinal()] = s.rmse(PrivateSvdMechanism.forApproxDp(p, eps, 1e-6).release(s.train(),
                            TestNoiseSources.seeded(1)));
                }
                double als = Double.POSITIVE_INFINITY;
                for (int t : new int[] {2, 3, 5}) {
                    for (double c : new double[] {0.1, 0.3}) {
                        AlsParameters p = new AlsParameters(s.domain(), RatingsRelation.USER, 1, t, 0.1, 100, c, 0.1);
                        als = Math.min(als, s.rmse(DpAlsMechanism.forApproxDp(p, eps, 1e-6).release(s.train(),
                                TestNoiseSources.seeded(1))));
                    }
                }
                print(String.format(Locale.ROOT, "| %,d | %s | %.4f (%s) | %.4f | %.4f | %.4f | %.4f |", m, eps, fw, fwLabel,
                        svd[0], svd[1], als, reference));
            }
            System.out.printf(Locale.ROOT, "m = %,d done in %.0f s%n", m, (System.nanoTime() - t0) / 1e9);
        }
    }
}
