package io.privmat.mechanism.analytics;

import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.mechanism.linalg.SymmetricEigen;
import java.util.ArrayList;
import java.util.List;

/**
 * The rank-k approximation Ĉ_k = V_k·diag(max(λ̂ⱼ, 0))·V_kᵀ of the debiased release S = Ĉ − τI
 * (V_k its top-k eigenvectors, λ̂ its eigenvalues) and PCA projections of caller-given vectors onto
 * V_k. Free post-processing.
 *
 * <p><b>Error statement</b>, from the release's whole-space {@link NoiseModel.Envelope} (probability
 * ≥ level), with η a bound on ‖S − C‖₂ ({@link NoiseModel.Envelope#spectral}):
 * <ul>
 *   <li>each eigenvalue λⱼ(XᵀX) lies in the envelope's interval around λ̂ⱼ (Weyl, or Courant–Fischer
 *       for the JL sketch's relative envelope), clamped at 0;</li>
 *   <li>‖XᵀX − Ĉ_k‖₂ ≤ η + max(max_{j&gt;k} |λ̂ⱼ|, max_{j≤k} max(0, −λ̂ⱼ));</li>
 *   <li>‖sin Θ(V_k, top-k eigenvectors of XᵀX)‖₂ ≤ η/(λ̂_k − λ̂_{k+1} − η) when that gap is positive
 *       (Davis–Kahan with λ_{k+1}(XᵀX) ≤ λ̂_{k+1} + η), else 1; a projection P̂x then differs from the
 *       exact PCA projection by at most that times ‖x‖.</li>
 * </ul>
 */
public final class LowRankApproximation {

    /** Largest rank per request. */
    public static final int MAX_RANK = 200;

    private LowRankApproximation() {}

    /** A caller's vector in the released basis, and the bound on its projection's error. */
    public record Projection(double[] coordinates, double errorBound) {}

    /**
     * @param components d × k, row-major, orthonormal columns
     * @param noiseSpectralBound η, the bound on ‖Ĉ − τI − XᵀX‖₂
     */
    public record Result(int d, int k, double[] components, List<Bounds> eigenvalues, double noiseSpectralBound,
            double approximationErrorBound, double subspaceSinThetaBound, List<Projection> projections, double level) {}

    /**
     * @param vectors caller vectors of length d (projected onto the released subspace; may be empty)
     */
    public static Result of(SecondMoment release, int k, List<double[]> vectors, double level) {
        int d = release.d();
        int max = Math.min(d, MAX_RANK);
        AnalyticsArgumentException.check(k >= 1 && k <= max, "k", "[1, " + max + "]", "k must be in [1, " + max + "]");
        AnalyticsArgumentException.level(level);
        for (int v = 0; v < vectors.size(); v++) {
            AnalyticsArgumentException.check(vectors.get(v).length == d, "vectors[" + v + "]", d + " numbers",
                    "vectors[" + v + "] must have " + d + " entries");
        }
        double tau = release.noise().shift();
        SymmetricEigen e = LinearAlgebra.eigen(release.debiased(), d);
        double[] lambda = e.values();
        NoiseModel.Envelope envelope = release.noise().envelope(d, 1 - level);
        double eta = envelope.spectral(lambda[0] + tau);
        List<Bounds> eigenvalues = new ArrayList<>();
        double residual = 0;
        for (int j = 0; j < d; j++) {
            if (j < k) {
                eigenvalues.add(envelope.invert(lambda[j] + tau, tau));
                residual = Math.max(residual, -Math.min(lambda[j], 0));
            } else {
                residual = Math.max(residual, Math.abs(lambda[j]));
            }
        }
        double sin;
        if (k == d) {
            sin = 0;
        } else {
            double gap = lambda[k - 1] - lambda[k] - eta;
            sin = gap > 0 ? Math.min(1, eta / gap) : 1;
        }
        double[] components = e.topVectors(k);
        List<Projection> projections = new ArrayList<>();
        for (double[] x : vectors) {
            double[] coordinates = new double[k];
            for (int c = 0; c < k; c++) {
                double s = 0;
                for (int i = 0; i < d; i++) {
                    s += components[i * k + c] * x[i];
                }
                coordinates[c] = s;
            }
            projections.add(new Projection(coordinates, sin * LinearRegression.norm(x)));
        }
        return new Result(d, k, components, eigenvalues, eta, eta + residual, sin, projections, level);
    }
}
