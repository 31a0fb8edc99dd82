package io.privmat.mechanism.sketch;

import io.privmat.privacy.PrivacyFloors;

/**
 * Public parameters of a JL sketch (docs/mechanisms/sketches.md, "The privacy lemma"): r = ⌈8·ln(2/ν)/η²⌉ projections, so that
 * a fixed quadratic form is estimated within relative error η with probability ≥ 1 − ν (χ²
 * concentration P(|χ²_r/r − 1| ≥ η) ≤ 2e^{−rη²/8} for η ≤ 1); and Sheffet's floor on the smallest
 * eigenvalue of the (altered) Gram matrix, W = (4B²/ε)·(√(2r·ln(4/δ)) + 2·ln(4/δ)), which makes
 * releasing R·A (ε, δ)-DP for a rank-one change of squared norm ≤ B² (add/remove or replace; the
 * exact privacy curve shows about a 10× margin; docs/mechanisms/sketches.md).
 *
 * @param r number of random projections
 * @param floor W, the public eigenvalue floor
 */
public record JlParameters(int r, double floor, double epsilon, double delta, double eta, double nu, double b2) {

    /** Largest accepted r (memory of r × n sketches). */
    public static final int MAX_R = 100_000;

    public static JlParameters of(double epsilon, double delta, double eta, double nu, double b2) {
        PrivacyFloors.epsilon("epsilon", epsilon);
        require(epsilon > 0 && epsilon <= 10, "epsilon must be in (0, 10]");
        require(delta > 0 && delta < 0.1, "delta must be in (0, 0.1)");
        require(eta > 0 && eta < 1, "eta must be in (0, 1)");
        require(nu > 0 && nu < 1, "nu must be in (0, 1)");
        double rExact = Math.ceil(8 * Math.log(2 / nu) / (eta * eta));
        require(rExact <= MAX_R, "eta is too small: r = ⌈8 ln(2/ν)/η²⌉ would exceed " + MAX_R);
        int r = (int) rExact;
        double lnTerm = Math.log(4 / delta);
        double w = Math.nextUp(4 * b2 / epsilon * (Math.sqrt(2 * r * lnTerm) + 2 * lnTerm));
        return new JlParameters(r, w, epsilon, delta, eta, nu, b2);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
