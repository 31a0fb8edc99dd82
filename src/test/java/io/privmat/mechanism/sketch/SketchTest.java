package io.privmat.mechanism.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.linalg.GramAccumulator;
import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.TestNoiseSources;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.StandardNormal;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** JL and Wishart sketches: sampler equivalence, parameters, and coverage of the stated intervals. */
class SketchTest {

    private record Edge(int u, int v, double w) {}

    @Test
    void parametersFollowTheFormulas() {
        JlParameters p = JlParameters.of(1, 1e-6, 0.1, 0.05, 2);
        assertThat(p.r()).isEqualTo((int) Math.ceil(8 * Math.log(40) / 0.01));
        double ln = Math.log(4e6);
        assertThat(p.floor()).isCloseTo(8 * (Math.sqrt(2 * p.r() * ln) + 2 * ln), within(1e-9));
        assertThatThrownBy(() -> JlGraphSketch.of(34, BigDecimal.ONE, new BigDecimal("1e-6"), 0.2, 0.05))
                .isInstanceOf(JlGraphSketch.GraphTooSmallException.class).hasMessageContaining("34 vertices");
        assertThatThrownBy(() -> JlParameters.of(1, 1e-6, 0.001, 0.05, 1)).hasMessageContaining("eta is too small");
    }

    /**
     * The efficient sampler (√w·(g − ḡ) + √(1 − w/n)·E_Gᵀh) has the covariance of the naive
     * construction M = R·E′ over all C(n, 2) pairs of the overlaid graph, i.e. E′ᵀE′ = L′.
     */
    @Test
    void efficientGraphSamplerHasTheNaiveCovariance() {
        int n = 6;
        double w = 2;
        List<Edge> edges = List.of(new Edge(0, 1, 1), new Edge(1, 2, 0.5), new Edge(2, 3, 0.25), new Edge(0, 4, 1),
                new Edge(3, 5, 0.75));
        // Naive: rows √w′_uv (e_u − e_v) for every pair, w′ = w/n + (1 − w/n)·w_uv; covariance E′ᵀE′.
        double[][] naive = new double[n][n];
        for (int u = 0; u < n; u++) {
            for (int v = u + 1; v < n; v++) {
                double wuv = 0;
                for (Edge e : edges) {
                    if (e.u() == u && e.v() == v) {
                        wuv = e.w();
                    }
                }
                double wp = w / n + (1 - w / n) * wuv;
                naive[u][u] += wp;
                naive[v][v] += wp;
                naive[u][v] -= wp;
                naive[v][u] -= wp;
            }
        }
        int r = 200_000;
        JlParameters p = new JlParameters(r, w, 1, 1e-6, 0.1, 0.05, 2);
        JlGraphSketch sketch = new JlGraphSketch(n, p, ApproxDp.of(1, 1e-6));
        double[] m = sketch.release(visitor -> edges.forEach(e -> visitor.edge(e.u(), e.v(), e.w())),
                TestNoiseSources.seeded(5));
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                double cov = 0;
                for (int j = 0; j < r; j++) {
                    cov += m[a * r + j] * m[b * r + j];
                }
                cov /= r;
                assertThat(cov).as("L′[%d][%d]", a, b).isCloseTo(naive[a][b], within(0.03 * Math.max(1, Math.abs(naive[a][b]))));
            }
        }
    }

    @Test
    void cutIntervalsHoldInMostTrials() {
        int n = 1200;
        SplittableRandom random = new SplittableRandom(3);
        List<Edge> edges = new ArrayList<>();
        for (int u = 0; u < n; u++) {
            for (int v = u + 1; v < n; v++) {
                if (random.nextDouble() < 0.01) {
                    edges.add(new Edge(u, v, random.nextDouble()));
                }
            }
        }
        JlGraphSketch sketch = JlGraphSketch.of(n, new BigDecimal("2"), new BigDecimal("1e-5"), 0.3, 0.1);
        JlParameters p = sketch.parameters();
        double[] m = sketch.release(visitor -> edges.forEach(e -> visitor.edge(e.u(), e.v(), e.w())),
                TestNoiseSources.seeded(6));
        float[] stored = new float[m.length];
        for (int i = 0; i < m.length; i++) {
            stored[i] = (float) m[i];
        }
        int covered = 0;
        int trials = 200;
        for (int t = 0; t < trials; t++) {
            int size = 1 + random.nextInt(n / 2);
            boolean[] in = new boolean[n];
            int[] set = random.ints(0, n).distinct().limit(size).toArray();
            for (int v : set) {
                in[v] = true;
            }
            double truth = 0;
            for (Edge e : edges) {
                if (in[e.u()] != in[e.v()]) {
                    truth += e.w();
                }
            }
            Interval answer = JlGraphSketch.cut(stored, n, p, set);
            if (answer.lower() <= truth && truth <= answer.upper()) {
                covered++;
            }
        }
        // Each interval holds with probability ≥ 1 − ν = 0.9.
        assertThat(covered).isGreaterThanOrEqualTo((int) (0.85 * trials));
    }

    private static double[] randomRows(int n, int d, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int j = 0; j < d; j++) {
                x[i * d + j] = (j + 1) * random.nextDouble() - 0.3 * j;
                norm += x[i * d + j] * x[i * d + j];
            }
            norm = Math.sqrt(norm);
            for (int j = 0; j < d; j++) {
                x[i * d + j] /= Math.max(1, norm);
            }
        }
        return x;
    }

    @Test
    void directionalVarianceIntervalsHoldForJlWishartAndAnalyzeGauss() {
        int n = 3000;
        int d = 8;
        double[] x = randomRows(n, d, 7);
        GramAccumulator acc = new GramAccumulator(d);
        acc.addRows(x, 0, n);
        double[] gram = acc.result();
        JlMatrixSketch jl = JlMatrixSketch.of(d, 1, BigDecimal.ONE, new BigDecimal("1e-5"), 0.2, 0.1);
        double[] m = jl.release(gram, TestNoiseSources.seeded(8));
        WishartMechanism wishart = WishartMechanism.of(d, 1, BigDecimal.ONE, new BigDecimal("1e-5"));
        double[] wc = wishart.release(gram, TestNoiseSources.seeded(9));
        NoiseSource random = TestNoiseSources.seeded(10);
        int trials = 300;
        int jlCovered = 0;
        int wishartCovered = 0;
        for (int t = 0; t < trials; t++) {
            double[] u = new double[d];
            double norm = 0;
            for (int j = 0; j < d; j++) {
                u[j] = ContinuousSamplers.standardNormal(random);
                norm += u[j] * u[j];
            }
            for (int j = 0; j < d; j++) {
                u[j] /= Math.sqrt(norm);
            }
            double truth = 0;
            for (int i = 0; i < n; i++) {
                double dot = 0;
                for (int j = 0; j < d; j++) {
                    dot += x[i * d + j] * u[j];
                }
                truth += dot * dot;
            }
            Interval a = JlMatrixSketch.directionalVariance(m, d, jl.parameters(), u);
            if (a.lower() <= truth && truth <= a.upper()) {
                jlCovered++;
            }
            Interval b = QuadraticForms.wishart(wc, d, wishart.degrees(), 1, wishart.granularity(), 0.1, u);
            if (b.lower() <= truth && truth <= b.upper()) {
                wishartCovered++;
            }
        }
        // JL: the same R serves every direction, so coverage is per direction (≥ 1 − ν each).
        assertThat(jlCovered).isGreaterThanOrEqualTo((int) (0.85 * trials));
        assertThat(wishartCovered).isGreaterThanOrEqualTo((int) (0.85 * trials));
        assertThat(StandardNormal.upperQuantile(0.025)).isCloseTo(1.959964, within(1e-5));
    }
}
