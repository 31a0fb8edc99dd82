package io.privmat.mechanism.completion;

import io.privmat.mechanism.noise.DiscreteGaussianSampler;
import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import java.util.stream.IntStream;

/**
 * One n × n noise matrix N = g·(G + Gᵀ)/2, G with i.i.d. exact discrete Gaussian entries on the
 * plan's grid, drawn from a secret replayable stream, so that it can be used twice in the same way:
 * held ({@link #addTo}, the dense path: round(W) + N, n² memory) or regenerated for every product
 * ({@link #multiply}, the memory-light path: N·v in O(n) extra memory, never storing N). Both
 * regenerate exactly the same G (the rows are split into stripes that depend on n only, each stripe
 * drawn from its own split of the stream, in a fixed order), so the two paths add the same noise.
 *
 * <p>Symmetrising is post-processing of the n²-dimensional Gaussian mechanism on vec(W): plan it
 * with dimension n² and the Frobenius sensitivity.
 */
final class SymmetricNoise {

    private final GridNoise.GaussianPlan plan;
    private final int n;
    private final NoiseSource.Replayable stream;
    private final int stripes;

    SymmetricNoise(GridNoise.GaussianPlan plan, int n, NoiseSource random) {
        this.plan = plan;
        this.n = n;
        this.stream = random.replayable();
        this.stripes = Math.max(1, Math.min(n, GridNoise.stripes((long) n * n)));
    }

    private int rowFrom(int stripe) {
        return (int) ((long) stripe * n / stripes);
    }

    private NoiseSource[] open() {
        NoiseSource opened = stream.open();
        NoiseSource[] sources = new NoiseSource[stripes];
        for (int p = 0; p < stripes; p++) {
            sources[p] = opened.split();
        }
        return sources;
    }

    /** G as n² integers (row-major). */
    private long[] integers() {
        long[] g = new long[n * n];
        NoiseSource[] sources = open();
        IntStream.range(0, stripes).parallel().forEach(
                p -> GridNoise.sampler(plan, sources[p]).fill(g, rowFrom(p) * n, rowFrom(p + 1) * n));
        return g;
    }

    /**
     * The dense release round(W) + g·(G + Gᵀ)/2 of a symmetric W (only its upper triangle is read;
     * the result is exactly symmetric, multiples of g/2). Entries are first clamped to ±2⁵⁰ grid
     * steps, a public entrywise clamp that can only shrink the difference between neighbours and is
     * never active for data within the documented limits, so rounding can never fail on data.
     */
    double[] addTo(double[] w) {
        long[] g = integers();
        double step = plan.granularity();
        double limit = 0x1p50;
        double[] out = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                double steps = Math.rint(w[i * n + j] / step);
                steps = steps > limit ? limit : (steps < -limit ? -limit : steps);
                double value = (steps + (g[i * n + j] + g[j * n + i]) / 2.0) * step;
                out[i * n + j] = value;
                out[j * n + i] = value;
            }
        }
        return out;
    }

    /** out = g·(G + Gᵀ)/2 · v, regenerating G stripe by stripe (O(stripes·n) memory). */
    void multiply(double[] v, double[] out) {
        NoiseSource[] sources = open();
        double[] rowPart = new double[n];
        double[][] colPart = new double[stripes][n];
        IntStream.range(0, stripes).parallel().forEach(p -> {
            double[] cols = colPart[p];
            DiscreteGaussianSampler sampler = GridNoise.sampler(plan, sources[p]);
            for (int i = rowFrom(p); i < rowFrom(p + 1); i++) {
                double dot = 0;
                double vi = v[i];
                for (int j = 0; j < n; j++) {
                    long z = sampler.next();
                    dot += z * v[j];
                    cols[j] += z * vi;
                }
                rowPart[i] = dot;
            }
        });
        double half = plan.granularity() / 2;
        for (int j = 0; j < n; j++) {
            double col = 0;
            for (int p = 0; p < stripes; p++) {
                col += colPart[p][j];
            }
            out[j] = half * (rowPart[j] + col);
        }
    }

    GridNoise.GaussianPlan plan() {
        return plan;
    }
}
