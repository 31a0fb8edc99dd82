package io.privmat.mechanism.sketch;

import io.privmat.mechanism.catalog.EdgeSource;
import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import java.math.BigDecimal;

/**
 * The Johnson–Lindenstrauss mechanism for graphs (Blocki, Blum, Datta, Sheffet, FOCS 2012; with
 * Sheffet's calibration; docs/mechanisms/sketches.md, "JL for graphs"), edge-level privacy.
 *
 * <p>Overlay the complete graph with weight w/n: L′ = (w/n)·L_{K_n} + (1 − w/n)·L_G, whose
 * non-trivial eigenvalues are all ≥ w. Release M = R·E′ (E′ the edge-vertex incidence matrix of the
 * overlaid graph, R an r × C(n,2) standard Gaussian) without building E′: the rows of M are i.i.d.
 * N(0, L′), drawn as √w·(g − mean(g)·1) + √(1 − w/n)·E_Gᵀh. A cut (S, S̄) is estimated as
 * (‖M·1_S‖²/r − (w/n)·s(n − s))/(1 − w/n).
 *
 * <p><b>Privacy guarantee</b>: (ε, δ)-DP with respect to changing one edge weight by at most 1
 * (L changes by bbᵀ with ‖b‖² ≤ 2, so B² = 2 in {@link JlParameters}). Requires w ≤ n; smaller
 * graphs are refused. <b>Numerics</b>: floating-point Gaussians from the CSPRNG (secret R never
 * leaves the job); the sketch is stored as float32, a deterministic post-processing.
 */
public final class JlGraphSketch {

    private final int n;
    private final JlParameters params;
    private final ApproxDp loss;

    JlGraphSketch(int n, JlParameters params, ApproxDp loss) {
        this.n = n;
        this.params = params;
        this.loss = loss;
    }

    /**
     * @throws GraphTooSmallException if the overlay weight w exceeds the number of vertices
     */
    public static JlGraphSketch of(int vertices, BigDecimal epsilon, BigDecimal delta, double eta, double nu) {
        JlParameters p = JlParameters.of(Decimals.toDoubleDown(epsilon), Decimals.toDoubleDown(delta), eta, nu, 2.0);
        if (p.floor() > vertices) {
            throw new GraphTooSmallException(vertices, p.floor());
        }
        return new JlGraphSketch(vertices, p, new ApproxDp(epsilon, delta));
    }

    public JlParameters parameters() {
        return params;
    }

    public ApproxDp privacyLoss() {
        return loss;
    }

    /**
     * The sketch, vertex-major: {@code sketch[vertex * r + j]} is row j, column {@code vertex} of M.
     * Memory n·r doubles while building.
     */
    public double[] release(EdgeSource edges, NoiseSource random) {
        int r = params.r();
        double w = params.floor();
        double[] m = new double[n * r];
        // z₁ = √w·(g − mean(g)): per projection j, centre g over the vertices.
        double sqrtW = Math.sqrt(w);
        double[] mean = new double[r];
        for (int v = 0; v < n; v++) {
            for (int j = 0; j < r; j++) {
                double g = ContinuousSamplers.standardNormal(random);
                m[v * r + j] = g;
                mean[j] += g;
            }
        }
        for (int j = 0; j < r; j++) {
            mean[j] /= n;
        }
        for (int v = 0; v < n; v++) {
            for (int j = 0; j < r; j++) {
                m[v * r + j] = sqrtW * (m[v * r + j] - mean[j]);
            }
        }
        // z₂ = √(1 − w/n)·E_Gᵀh: each edge adds √w_e·h_e to u and subtracts it from v.
        double keep = Math.sqrt(1 - w / n);
        double[] h = new double[r];
        edges.forEachEdge((u, v, weight) -> {
            if (weight <= 0) {
                return;
            }
            double s = keep * Math.sqrt(weight);
            for (int j = 0; j < r; j++) {
                h[j] = s * ContinuousSamplers.standardNormal(random);
            }
            for (int j = 0; j < r; j++) {
                m[u * r + j] += h[j];
                m[v * r + j] -= h[j];
            }
        });
        return m;
    }

    /** Estimate and interval of the cut of a vertex set, from a released sketch. */
    public static Interval cut(float[] sketch, int n, JlParameters p, int[] set) {
        int r = p.r();
        double[] sum = new double[r];
        for (int v : set) {
            for (int j = 0; j < r; j++) {
                sum[j] += sketch[v * r + j];
            }
        }
        double norm2 = 0;
        for (double x : sum) {
            norm2 += x * x;
        }
        double s = set.length;
        double overlay = p.floor() / n * s * (n - s);
        double scale = 1 - p.floor() / n;
        double estimate = (norm2 / r - overlay) / scale;
        // |Φ̂ − Φ| ≤ η·Φ + η·overlay/(1 − w/n) with probability ≥ 1 − ν (docs/mechanisms/sketches.md).
        return Interval.relative(estimate, p.eta(), overlay / scale);
    }

    /** The graph has fewer vertices than the overlay weight w needs. */
    public static final class GraphTooSmallException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        GraphTooSmallException(int n, double w) {
            super("the graph has " + n + " vertices but the JL overlay needs w = " + Math.ceil(w)
                    + " ≤ n at these epsilon, delta and eta; raise epsilon or eta, or use a larger graph");
        }
    }
}
