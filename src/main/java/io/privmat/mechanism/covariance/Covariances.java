package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.catalog.LowRanks;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import java.util.ArrayList;
import java.util.List;

/** Shared rules of the covariance-type mechanisms. */
public final class Covariances {

    private Covariances() {}

    /** A PCA rank chosen after the release: every eigenvalue above the noise's bound ({@link #top}). */
    static final int AUTO = 0;

    /**
     * The rank of the answer: PCA takes params.k in [1, d], or {@code pcaDefault} when it is absent
     * ({@link #AUTO} for mechanisms whose rank is post-processing, 1 for a mechanism whose noise
     * grows with k); COVARIANCE returns the full matrix unless the mechanism has a rank of its own
     * ({@code covarianceDefault} &lt; d, the eigen-sampling one).
     */
    static int rank(QueryKind kind, Params params, int d, int covarianceDefault, int pcaDefault) {
        Integer k = params.optionalInteger("k");
        if (k != null && k > d) {
            throw PlanningException.invalid("params.k", "[1, " + d + "]", "params.k must be an integer in [1, " + d + "]");
        }
        if (kind == QueryKind.PCA) {
            return k != null ? k : pcaDefault;
        }
        if (k != null && covarianceDefault == d) {
            throw PlanningException.invalid("params.k", "absent", "COVARIANCE returns the full d×d matrix; "
                    + "params.k applies to PCA or EIGEN_SAMPLING");
        }
        return k != null ? k : covarianceDefault;
    }

    /**
     * The components of a release whose eigenvalues exceed the noise's spectral bound (Weyl: the others
     * cannot be told from 0), at least the first; post-processing of the released values
     * (docs/mechanisms/catalogue.md, "Defaults").
     */
    static CovarianceRelease top(CovarianceRelease r,
            double bound) {
        int k = LowRanks.aboveNoise(r.eigenvalues(), bound);
        if (k >= r.k()) {
            return r;
        }
        return new CovarianceRelease(r.d(), r.covariance(),
                java.util.Arrays.copyOf(r.eigenvalues(), k), LowRanks.columns(r.components(), r.d(), r.k(), k), k,
                r.noiseDominated());
    }

    /** Eigenvalues are clamped to [0, n·B²] when n is public (post-processing), else only below. */
    public static double upper(PublicFacts facts) {
        return facts.publicRows() == null ? Double.POSITIVE_INFINITY
                : facts.publicRows() * facts.rowNormBound() * facts.rowNormBound();
    }

    /**
     * What a quote states for a noisy second-moment matrix whose noise E has ‖E‖₂ ≤ {@code spectral}
     * (at the default level) and √E‖E‖_F² = {@code frobeniusRms}: for COVARIANCE the Frobenius RMS and
     * the spectral bound 2·‖E‖₂ of the projected answer; for PCA the eigenvalue error ‖E‖₂ (Weyl) and
     * the captured-variance gap 2k·‖E‖₂.
     */
    public static List<ErrorStatement> gramQuote(QueryKind kind, int k, double spectral, double frobenius,
            @org.jspecify.annotations.Nullable Double frobeniusLevel, ErrorBasis frobeniusBasis,
            String noise) {
        double level = ResultAccuracy.DEFAULT_LEVEL;
        if (kind == QueryKind.PCA) {
            return List.of(new ErrorStatement("eigenvalues", "absPerEigenvalue", spectral, level, ErrorBasis.BOUND,
                            "Weyl: |λ̂ᵢ − λᵢ| ≤ ‖E‖₂ for " + noise + "; clamping to [0, n·B²] only helps"),
                    new ErrorStatement("components", "capturedVarianceGap", 2 * k * spectral, level, ErrorBasis.BOUND,
                            "the top-k subspace of C + E captures at least Σᵢ≤k λᵢ − 2k·‖E‖₂ of C"));
        }
        return List.of(new ErrorStatement("covariance", "frobeniusNorm", frobenius, frobeniusLevel, frobeniusBasis,
                        (frobeniusLevel == null ? "√E‖E‖_F² of " : "‖E‖_F bound of ") + noise + "; the projection onto {0 ≤ λ ≤ n·B²} never increases it"),
                new ErrorStatement("covariance", "spectralNorm", 2 * spectral, level, ErrorBasis.BOUND,
                        "‖Ĉ − C‖₂ ≤ ‖E‖₂ + (eigenvalue clamp ≤ ‖E‖₂) for " + noise),
                new ErrorStatement("eigenvalues", "absPerEigenvalue", spectral, level, ErrorBasis.BOUND,
                        "Weyl: |λ̂ᵢ − λᵢ| ≤ ‖E‖₂"));
    }

    /**
     * Intervals of a projected noisy second-moment release, from public bounds on its noise E at the
     * level (‖E‖₂ ≤ {@code spectral}, ‖E‖_F ≤ {@code frobenius}) and the released values:
     * <ul>
     *   <li>eigenvalues: [max(λ̂ − s, 0), min(λ̂ + s, u)], u = n·B² or ∞ — Weyl, and the truth's
     *       eigenvalues lie in [0, u] so the released clamp never moves λ̂ away from them;</li>
     *   <li>COVARIANCE: ‖Ĉ − C‖_F ≤ f (the projection onto the convex set {0 ≤ λ ≤ u}, which holds C,
     *       is non-expansive) and ‖Ĉ − C‖₂ ≤ 2s; each entry within min(f, 2s) (|Aᵢⱼ| ≤ ‖A‖₂ ≤ ‖A‖_F;
     *       the smaller figure is chosen from public numbers), diagonal entries clamped at 0;</li>
     *   <li>PCA: the captured variance of the released subspace is within 2k·s of the best.</li>
     * </ul>
     */
    public static ResultAccuracy gramResult(Release.Covariance c, double level, double spectral, double frobenius,
            double upper, String noise) {
        CovarianceRelease r = c.result();
        double[] ev = r.eigenvalues();
        double[] lo = new double[ev.length];
        double[] hi = new double[ev.length];
        for (int i = 0; i < ev.length; i++) {
            lo[i] = Math.max(0, ev[i] - spectral);
            hi[i] = Math.max(ev[i], Math.min(upper, ev[i] + spectral));
            lo[i] = Math.min(lo[i], ev[i]);
        }
        List<IntervalSet> intervals = new ArrayList<>();
        intervals.add(new IntervalSet("eigenvalues", ErrorBasis.BOUND, level, ev.clone(), lo, hi,
                "eigenvalues of XᵀX lie in [0, n·B²]: interval intersected with it (the estimate already is)"));
        List<ErrorStatement> bounds = new ArrayList<>();
        bounds.add(new ErrorStatement("eigenvalues", "absPerEigenvalue", spectral, level, ErrorBasis.BOUND,
                "Weyl for " + noise));
        if (c.pca()) {
            bounds.add(new ErrorStatement("components", "capturedVarianceGap", 2 * r.k() * spectral, level,
                    ErrorBasis.BOUND, "tr(V̂ᵀCV̂) ≥ Σᵢ≤k λᵢ(C) − 2k·‖E‖₂"));
        } else if (r.covariance() != null) {
            int d = r.d();
            double half = Math.min(frobenius, 2 * spectral);
            double[] est = r.covariance();
            double[] elo = new double[d * d];
            double[] ehi = new double[d * d];
            for (int i = 0; i < d * d; i++) {
                boolean diagonal = i / d == i % d;
                elo[i] = diagonal ? Math.min(est[i], Math.max(0, est[i] - half)) : est[i] - half;
                ehi[i] = est[i] + half;
            }
            intervals.add(new IntervalSet("covariance", ErrorBasis.BOUND, level, est.clone(), elo, ehi,
                    "diagonal entries (Σ xᵢⱼ²) are ≥ 0: their lower ends clamped at 0"));
            bounds.add(new ErrorStatement("covariance", "frobeniusNorm", frobenius, level, ErrorBasis.BOUND,
                    "‖E‖_F bound for " + noise + "; the PSD projection is non-expansive"));
            bounds.add(new ErrorStatement("covariance", "spectralNorm", 2 * spectral, level, ErrorBasis.BOUND,
                    "‖E‖₂ plus the eigenvalue clamp (≤ ‖E‖₂)"));
        }
        return new ResultAccuracy(level, intervals, bounds, "simultaneous bounds on the whole matrix at the level, "
                + "from public noise parameters and the released values");
    }
}
