package io.privmat.mechanism.sketch;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.noise.ContinuousSamplers;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.Decimals;
import java.math.BigDecimal;

/**
 * The Johnson–Lindenstrauss mechanism for matrices (BBDS 2012 with Sheffet's calibration;
 * docs/mechanisms/sketches.md, "JL for matrices"): release M = R·[X; √W·I], identically distributed as G·Lᵀ where
 * L·Lᵀ = XᵀX + W·I (Cholesky) and G is r × d standard Gaussian — O(nd² + d³ + rd²), never the
 * (n + d)-row matrix. Directional variance ‖Xx‖² for unit x is estimated as ‖Mx‖²/r − W.
 *
 * <p><b>Privacy guarantee</b>: (ε, δ)-DP for a change of one row of norm ≤ B (add/remove or
 * replace), W as in {@link JlParameters} with B² = rowBound². The shift by W·I is a fixed public
 * transformation (never "raise only the small singular values", which is data-dependent).
 */
public final class JlMatrixSketch {

    private final int d;
    private final JlParameters params;
    private final ApproxDp loss;

    JlMatrixSketch(int d, JlParameters params, ApproxDp loss) {
        this.d = d;
        this.params = params;
        this.loss = loss;
    }

    public static JlMatrixSketch of(int d, double rowBound, BigDecimal epsilon, BigDecimal delta, double eta, double nu) {
        double b2 = Math.nextUp(rowBound * rowBound * (1 + 0x1p-39));
        return new JlMatrixSketch(d, JlParameters.of(Decimals.toDoubleDown(epsilon), Decimals.toDoubleDown(delta), eta,
                nu, b2), new ApproxDp(epsilon, delta));
    }

    public JlParameters parameters() {
        return params;
    }

    public ApproxDp privacyLoss() {
        return loss;
    }

    /** M (r × d, row-major). */
    public double[] release(double[] gram, NoiseSource random) {
        double[] shifted = gram.clone();
        for (int i = 0; i < d; i++) {
            shifted[i * d + i] += params.floor();
        }
        double[] lower = LinearAlgebra.cholesky(shifted, d);
        int r = params.r();
        double[] m = new double[r * d];
        double[] g = new double[d];
        for (int row = 0; row < r; row++) {
            for (int k = 0; k < d; k++) {
                g[k] = ContinuousSamplers.standardNormal(random);
            }
            // (G·Lᵀ)[row, i] = Σ_k g_k·L[i, k], k ≤ i.
            for (int i = 0; i < d; i++) {
                double s = 0;
                for (int k = 0; k <= i; k++) {
                    s += g[k] * lower[i * d + k];
                }
                m[row * d + i] = s;
            }
        }
        return m;
    }

    /** Estimate and interval of ‖Xx‖² for a unit x: |Φ̂ − Φ| ≤ η·(Φ + W) with probability ≥ 1 − ν. */
    public static Interval directionalVariance(double[] sketch, int d, JlParameters p, double[] unit) {
        int r = p.r();
        double total = 0;
        for (int row = 0; row < r; row++) {
            double dot = 0;
            for (int i = 0; i < d; i++) {
                dot += sketch[row * d + i] * unit[i];
            }
            total += dot * dot;
        }
        double estimate = total / r - p.floor();
        return Interval.relative(estimate, p.eta(), p.floor());
    }
}
