package io.privmat.mechanism.catalog;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Decimals;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The budget a query asks to spend: ρ (zCDP), or ε with δ, or ε alone — which of these a mechanism
 * takes is its {@link Form}. Validated by {@link #read}; values are public parameters.
 */
public record QueryBudget(@Nullable BigDecimal epsilon, @Nullable BigDecimal delta, @Nullable BigDecimal rho) {

    public static final BigDecimal MAX_EPSILON = BigDecimal.valueOf(100);
    public static final BigDecimal MAX_DELTA = new BigDecimal("0.01");
    public static final BigDecimal MAX_RHO = BigDecimal.valueOf(100);

    /** How a mechanism is calibrated, and so which budget fields it takes. */
    public enum Form {
        /** A Gaussian mechanism: ρ alone (ZCDP accounting only), or ε with δ (analytic calibration). */
        GAUSSIAN,
        /** Pure ε-DP: ε alone. */
        PURE_EPSILON,
        /** (ε, δ)-DP only: ε with δ. */
        APPROXIMATE,
        /**
         * Either: ε alone calibrates pure ε-DP (Laplace) noise; ρ, or ε with δ, Gaussian noise (the
         * GAUSSIAN rules). For mechanisms that exist in both noise families.
         */
        PURE_OR_GAUSSIAN
    }

    /** True when only ε is given (a pure ε-DP request under {@link Form#PURE_OR_GAUSSIAN}). */
    public boolean isPureEpsilon() {
        return epsilon != null && delta == null && rho == null;
    }

    /** True when the mechanism is calibrated to ρ (else to ε, δ or ε alone). */
    public boolean isRho() {
        return rho != null;
    }

    public double rhoDown() {
        return down(rho);
    }

    public double epsilonDown() {
        return down(epsilon);
    }

    public double deltaDown() {
        return down(delta);
    }

    /** A share of this budget (for composite mechanisms), rounded down. */
    public QueryBudget share(BigDecimal fraction) {
        return new QueryBudget(times(epsilon, fraction), times(delta, fraction), times(rho, fraction));
    }

    /**
     * Checks the fields against the form, the accounting mode and the ranges (ε ≤ {@code maxEpsilon}).
     *
     * @throws PlanningException 400 for a missing, extra or out-of-range field; 422 when the dataset's
     *     accounting cannot charge this form
     */
    public QueryBudget read(Form form, String mechanism, AccountingMode mode, BigDecimal maxEpsilon) {
        if (form == Form.PURE_OR_GAUSSIAN) {
            return read(isPureEpsilon() || epsilon == null && delta == null && rho == null ? Form.PURE_EPSILON
                    : Form.GAUSSIAN, mechanism, mode, maxEpsilon);
        }
        check("epsilon", epsilon, maxEpsilon);
        check("delta", delta, MAX_DELTA);
        check("rho", rho, MAX_RHO);
        switch (form) {
            case PURE_EPSILON -> {
                if (rho != null || delta != null) {
                    throw PlanningException.invalid(rho != null ? "rho" : "delta", "epsilon only",
                            mechanism + " is pure epsilon-DP: give epsilon only");
                }
                if (epsilon == null) {
                    throw PlanningException.invalid("epsilon", range(maxEpsilon), mechanism + " needs epsilon");
                }
            }
            case APPROXIMATE -> {
                if (rho != null) {
                    throw PlanningException.invalid("rho", "epsilon and delta",
                            mechanism + " is (epsilon, delta)-DP: give epsilon and delta");
                }
                if (epsilon == null || delta == null) {
                    throw PlanningException.invalid(epsilon == null ? "epsilon" : "delta",
                            range(maxEpsilon) + " and (0, 0.01]", mechanism + " needs epsilon and delta");
                }
                if (mode == AccountingMode.PURE) {
                    throw incompatible(mode, mechanism);
                }
            }
            case GAUSSIAN -> {
                if (mode == AccountingMode.PURE) {
                    throw incompatible(mode, mechanism);
                }
                if (rho != null) {
                    if (epsilon != null || delta != null) {
                        throw PlanningException.invalid("rho", "rho alone, or epsilon with delta",
                                "give either rho or epsilon with delta, not both");
                    }
                    if (mode != AccountingMode.ZCDP) {
                        throw new PlanningException(PlanningException.Reason.INCOMPATIBLE_ACCOUNTING, "rho is only "
                                + "accepted by datasets with ZCDP accounting; this one uses " + mode
                                + ": give epsilon and delta.", Map.of("accounting", mode.name(), "parameter", "rho"));
                    }
                } else if (epsilon == null || delta == null) {
                    throw PlanningException.invalid(epsilon == null ? "epsilon" : "delta",
                            range(maxEpsilon) + " and (0, 0.01]", mechanism + " needs rho, or epsilon with delta");
                }
            }
            default -> throw new IllegalStateException();
        }
        return this;
    }

    static PlanningException incompatible(AccountingMode mode, String mechanism) {
        return new PlanningException(PlanningException.Reason.INCOMPATIBLE_ACCOUNTING, mechanism
                + " cannot be charged under " + mode + " accounting (it is not pure epsilon-DP).",
                Map.of("accounting", mode.name(), "parameter", "mechanism"));
    }

    private static String range(BigDecimal max) {
        return "(0, " + max.toPlainString() + "]";
    }

    private static void check(String name, @Nullable BigDecimal value, BigDecimal max) {
        if (value != null && (value.signum() <= 0 || value.compareTo(max) > 0)) {
            // The value is echoed only when short: a huge exponent must not build a huge message.
            String shown = value.precision() - value.scale() > 40 || value.scale() > 400 ? value.toString()
                    : value.toPlainString();
            throw PlanningException.invalid(name, range(max),
                    name + " must be in " + range(max) + " but was " + shown);
        }
    }

    private static @Nullable BigDecimal times(@Nullable BigDecimal v, BigDecimal f) {
        return v == null ? null : v.multiply(f).round(new MathContext(34, RoundingMode.FLOOR));
    }

    private static double down(@Nullable BigDecimal v) {
        if (v == null) {
            throw new IllegalStateException("budget field absent");
        }
        return Decimals.toDoubleDown(v.round(new MathContext(34, RoundingMode.FLOOR)));
    }
}
