package io.privmat.mechanism.analytics;

/**
 * The public noise model of a released second-moment matrix Ĉ of C = XᵀX: what is known about
 * Ĉ − C from the mechanism's public parameters alone. Every error statement of this package is a
 * function of the released Ĉ and of one of these models.
 *
 * <p>All bounds are uniform over the unit vectors of a set of coordinates chosen before looking at
 * the noise (or over every s-sparse support at once, by a union bound), so they stay valid for
 * directions chosen from the release itself (a principal component, a sparse component, a
 * regression coefficient vector).
 */
public sealed interface NoiseModel permits NoiseModel.Gaussian, NoiseModel.Wishart, NoiseModel.JohnsonLindenstrauss {

    /** τ with E[Ĉ] = C + τ·I: 0 for Analyze Gauss, k·B² for Wishart, W for the JL sketch. */
    double shift();

    /**
     * With probability at least 1 − e^{logFailure}, for every unit x supported on one fixed set of m
     * coordinates: {@link Envelope#holds}.
     */
    Envelope envelopeLog(int m, double logFailure);

    /** {@link #envelopeLog} at failure probability ν. */
    default Envelope envelope(int m, double nu) {
        return envelopeLog(m, Math.log(nu));
    }

    /** The same, uniformly over every s-sparse unit x in ℝ^d (union bound over the C(d, s) supports). */
    default Envelope sparseEnvelope(int d, int s, double nu) {
        return envelopeLog(s, Math.log(nu) - Tails.logBinomial(d, s));
    }

    /**
     * Constants for regression on p predictors and one response (a (p + 1)-coordinate block), each at
     * total failure probability ν; see {@link RegressionNoise}. Additive models only.
     */
    RegressionNoise regression(int p, double nu);

    /** t with 2·e^{−t²/2} = e^{logFailure} (two one-sided Gaussian tails). */
    private static double twoSided(double logFailure) {
        return Math.sqrt(2 * (Math.log(2) - logFailure));
    }

    /**
     * Analyze Gauss: Ĉ = C + R + E with E = (G + Gᵀ)/2, G i.i.d. discrete Gaussian of standard deviation
     * at most σ (treated as N(0, σ²); its variance is at most σ² and it is σ-subgaussian, Canonne,
     * Kamath, Steinke 2020), and R the rounding of C to the grid g (|Rᵢⱼ| ≤ g/2).
     *
     * <p>E on m coordinates is σ/√2 times a GOE matrix (off-diagonal variance 1, diagonal 2). By
     * Sudakov–Fernique, E λ_max ≤ 2·E‖g‖ ≤ 2√m for the GOE (its increments satisfy
     * E(xᵀWx − yᵀWy)² = 4(1 − ⟨x, y⟩²) ≤ 8(1 − ⟨x, y⟩) = E(2⟨g, x⟩ − 2⟨g, y⟩)²), and λ_max is
     * σ-Lipschitz in the Gaussian entries, so ‖E‖ ≤ σ(√(2m) + t) except with probability 2e^{−t²/2};
     * ‖R‖ ≤ ‖R‖_F ≤ m·g/2.
     */
    record Gaussian(double sigma, double granularity) implements NoiseModel {

        @Override
        public double shift() {
            return 0;
        }

        @Override
        public Envelope envelopeLog(int m, double logFailure) {
            return Envelope.additive(sigma * (Math.sqrt(2.0 * m) + twoSided(logFailure)) + m * granularity / 2);
        }

        /**
         * ν/3 each: ‖e‖ for the predictor–response entries (i.i.d. variance σ²/2, Laurent–Massart),
         * ‖E_XX‖ (the envelope above) and |E_yy| (variance σ²).
         */
        @Override
        public RegressionNoise regression(int p, double nu) {
            double a0 = sigma * Math.sqrt(Tails.chiSquaredUpper(p, Math.log(3 / nu)) / 2) + Math.sqrt(p) * granularity / 2;
            double a1 = envelope(p, nu / 3).additive();
            double yy = sigma * Tails.normalUpper(nu / 6) + granularity / 2;
            return new RegressionNoise(a0, a1, yy, sigma * sigma / 2, sigma * sigma / 2);
        }
    }

    /**
     * Wishart: Ĉ = C + W + R, W ~ Wishart_d(B²·I, k) = B²·GᵀG with G a k × d standard Gaussian, R the
     * rounding to the grid g. On m coordinates, W's block is B²·G_SᵀG_S with G_S k × m, whose
     * singular values lie in [√k − √m − t, √k + √m + t] except with probability 2e^{−t²/2}
     * (Davidson–Szarek; Vershynin 2012, Corollary 5.35), so ‖W_SS − kB²I‖ ≤
     * B²·max((√k + √m + t)² − k, k − (√k − √m − t)₊²).
     *
     * @param b2 B²
     */
    record Wishart(long degrees, double b2, double granularity) implements NoiseModel {

        @Override
        public double shift() {
            return degrees * b2;
        }

        @Override
        public Envelope envelopeLog(int m, double logFailure) {
            double t = twoSided(logFailure);
            double k = degrees;
            double hi = Math.sqrt(k) + Math.sqrt(m) + t;
            double lo = Math.max(0, Math.sqrt(k) - Math.sqrt(m) - t);
            return Envelope.additive(b2 * Math.max(hi * hi - k, k - lo * lo) + m * granularity / 2);
        }

        /**
         * ‖(E v)_X‖ ≤ ‖E‖·‖v‖ ≤ η_{p+1}·(1 + ‖β‖) with the (p + 1)-block envelope at ν/2; the response's
         * own noise B²(χ²_k − k) within B²(2√(k·t) + 2t), t = ln(4/ν), at ν/2.
         */
        @Override
        public RegressionNoise regression(int p, double nu) {
            double eta = envelope(p + 1, nu / 2).additive();
            double t = Math.log(4 / nu);
            double yy = b2 * (2 * Math.sqrt(degrees * t) + 2 * t) + granularity / 2;
            double cov = degrees * b2 * b2;
            return new RegressionNoise(eta, eta, yy, cov, cov);
        }
    }

    /**
     * The JL sketch M = G·Lᵀ (r × d, G standard Gaussian, L·Lᵀ = C + W·I) released as Ĉ = MᵀM/r:
     * its rows are i.i.d. N(0, C + W·I). For unit x on m fixed coordinates, xᵀĈx/xᵀ(C + WI)x =
     * ‖G·Q·c‖²/(r‖c‖²) for an orthonormal d × m basis Q of Lᵀ's image of those coordinates, so it lies
     * in [(1 − δ)², (1 + δ)²] with δ = (√m + t)/√r except with probability 2e^{−t²/2} (the same
     * singular-value bounds). The noise is multiplicative, not additive.
     *
     * @param floor W, the public eigenvalue floor of the sketch
     */
    record JohnsonLindenstrauss(int r, double floor) implements NoiseModel {

        @Override
        public double shift() {
            return floor;
        }

        @Override
        public Envelope envelopeLog(int m, double logFailure) {
            double delta = (Math.sqrt(m) + twoSided(logFailure)) / Math.sqrt(r);
            double lo = Math.max(0, 1 - delta);
            return new Envelope(0, lo * lo, (1 + delta) * (1 + delta));
        }

        @Override
        public RegressionNoise regression(int p, double nu) {
            throw new UnsupportedOperationException("JL regression has exact t intervals (LinearRegression)");
        }
    }

    /**
     * For every unit x in its family: lower·(xᵀCx + τ) − additive ≤ xᵀĈx ≤ upper·(xᵀCx + τ) + additive.
     * By Courant–Fischer the same holds for every eigenvalue: lower·(λⱼ(C) + τ) − additive ≤ λⱼ(Ĉ) ≤
     * upper·(λⱼ(C) + τ) + additive.
     */
    record Envelope(double additive, double lowerFactor, double upperFactor) {

        static Envelope additive(double a) {
            return new Envelope(a, 1, 1);
        }

        /** The interval for xᵀCx (or λⱼ(C)) given the released xᵀĈx (or λⱼ(Ĉ)); see {@link Bounds}. */
        public Bounds invert(double released, double shift) {
            double lower = (released - additive) / upperFactor - shift;
            double upper = lowerFactor > 0 ? (released + additive) / lowerFactor - shift : Double.POSITIVE_INFINITY;
            return Bounds.nonNegative(released - shift, lower, upper);
        }

        /**
         * A bound on ‖Ĉ − τI − C‖₂ given λ₁(Ĉ): additive + max(upper − 1, 1 − lower)·(λ₁(C) + τ), with
         * λ₁(C) + τ ≤ (λ₁(Ĉ) + additive)/lower. +∞ when lower is 0.
         */
        public double spectral(double topReleased) {
            double relative = Math.max(upperFactor - 1, 1 - lowerFactor);
            if (relative == 0) {
                return additive;
            }
            if (!(lowerFactor > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            return additive + relative * Math.max(0, topReleased + additive) / lowerFactor;
        }
    }
}
