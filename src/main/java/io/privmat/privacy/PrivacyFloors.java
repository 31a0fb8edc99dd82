package io.privmat.privacy;

/**
 * The smallest privacy parameters a mechanism accepts (docs/adr/0006-privacy-hardening.md, item 4).
 *
 * <p>Below these the noise a mechanism can represent exactly (integer scales on a power-of-two
 * grid, see io.privmat.mechanism.noise.GridNoise) no longer grows as fast as the charge shrinks,
 * so the charge would be below the real loss, or the decimal charge would be shown as 0. Such
 * requests are refused with a {@link PrivacyArgumentException} (HTTP 400) before anything is
 * charged; they are useless anyway (the noise is astronomically larger than any answer).
 *
 * <ul>
 *   <li>ε ≥ {@link #MIN_EPSILON} for every ε-parameterised mechanism (and for each share of ε a
 *       mechanism splits its budget into);</li>
 *   <li>ρ ≥ {@link #MIN_RHO};</li>
 *   <li>in addition, noise scales must be representable: the discrete Laplace scale in grid steps
 *       at most 2⁵³ and the discrete Gaussian σ² in grid steps below 2⁶³ (roughly σ·√p/Δ ≤ 2¹⁸ for a
 *       p-dimensional query of L2 sensitivity Δ, i.e. ρ ≳ p·2⁻³⁷), and the Gaussian grid step
 *       2⁻¹²·min(σ, Δ/√p) a normal double (at least 2⁻¹⁰²²; {@link #scaleTooSmall}), which a tiny
 *       public bound (a row norm bound B with B² near 10⁻³⁰⁸) would break. Those checks live next to
 *       the noise plans and throw the same exception.</li>
 * </ul>
 */
public final class PrivacyFloors {

    /** The smallest ε accepted: 10⁻⁶. */
    public static final double MIN_EPSILON = 1e-6;
    /** The smallest ρ accepted: 10⁻¹⁰ (about the ρ of the pure ε = 10⁻⁵ → ε²/2 conversion). */
    public static final double MIN_RHO = 1e-10;

    private PrivacyFloors() {}

    /** Returns ε, or throws if it is not finite or below {@link #MIN_EPSILON}. */
    public static double epsilon(String name, double epsilon) {
        Checks.finite(name, epsilon);
        if (!(epsilon >= MIN_EPSILON)) {
            throw new PrivacyArgumentException(name, "[" + MIN_EPSILON + ", ∞)",
                    name + " must be at least " + MIN_EPSILON + " (the smallest privacy loss whose noise is "
                            + "represented exactly) but was " + epsilon);
        }
        return epsilon;
    }

    /** Returns ρ, or throws if it is not finite or below {@link #MIN_RHO}. */
    public static double rho(String name, double rho) {
        Checks.finite(name, rho);
        if (!(rho >= MIN_RHO)) {
            throw new PrivacyArgumentException(name, "[" + MIN_RHO + ", ∞)",
                    name + " must be at least " + MIN_RHO + " (the smallest privacy loss whose noise is "
                            + "represented exactly) but was " + rho);
        }
        return rho;
    }

    /**
     * A sensitivity or noise scale so small (from a tiny public bound: a row norm bound, a clip) that its
     * grid step, 2⁻¹² of it, would be below the smallest normal double: refused, as the charge would
     * not match the noise (io.privmat.mechanism.noise.GridNoise).
     */
    public static PrivacyArgumentException scaleTooSmall(String what) {
        return new PrivacyArgumentException("bound", "bounds giving sensitivity/√p and σ of at least 2^-1010",
                "the public bounds make the noise scale too small to represent: " + what + " would need a grid "
                        + "step below 2^-1022; use a larger rowNormBound or clip (rescale the data)");
    }

    /** The refusal for a noise scale too large to represent exactly (a loss below the floor). */
    public static PrivacyArgumentException noiseTooLarge(String name, String allowedRange, String what) {
        return new PrivacyArgumentException(name, allowedRange, "the requested privacy loss is too small: " + what
                + " cannot be represented exactly, so the charge would understate the loss; raise epsilon or rho");
    }
}
