package io.privmat.privacy;

import java.math.BigDecimal;

/**
 * A dataset's total privacy budget (ε_B, δ_B) and its accounting mode.
 *
 * <p>Allowed ranges: ε_B ∈ (0, 100]. δ_B ∈ (0, 0.01] for {@code ZCDP} and {@code GDP} (their
 * conversions need δ &gt; 0), δ_B ∈ [0, 0.01] for {@code BASIC} and δ_B = 0 for {@code PURE}. δ_B above 1% is
 * refused: it no longer describes a meaningful guarantee for datasets of any realistic size.
 * {@code approxDeltaFraction} ∈ [0, 1) is the share of δ_B reserved (ZCDP only) for (ε, δ)-only
 * mechanisms such as JL or Wishart; the rest is spent by the zCDP → (ε, δ) conversion.
 *
 * @param epsilon ε_B
 * @param delta δ_B
 * @param mode accounting mode
 * @param approxDeltaFraction share of δ_B for approximate mechanisms (ZCDP); ignored otherwise
 */
public record Budget(BigDecimal epsilon, BigDecimal delta, AccountingMode mode, BigDecimal approxDeltaFraction) {

    /** Maximum ε_B. */
    public static final BigDecimal MAX_EPSILON = BigDecimal.valueOf(100);
    /** Maximum δ_B. */
    public static final BigDecimal MAX_DELTA = new BigDecimal("0.01");
    /** Default share of δ_B reserved for (ε, δ)-only mechanisms in ZCDP mode (docs/accounting.md §5). */
    public static final BigDecimal DEFAULT_APPROX_DELTA_FRACTION = new BigDecimal("0.1");

    public Budget {
        if (mode == null) {
            throw new PrivacyArgumentException("accounting", "ZCDP | BASIC | PURE | GDP",
                    "accounting must be one of ZCDP, BASIC, PURE, GDP");
        }
        Checks.inOpenClosed("epsilon", epsilon, BigDecimal.ZERO, MAX_EPSILON);
        Checks.present("delta", delta);
        switch (mode) {
            case ZCDP, GDP -> Checks.inOpenClosed("delta", delta, BigDecimal.ZERO, MAX_DELTA);
            case BASIC -> Checks.inClosed("delta", delta, BigDecimal.ZERO, MAX_DELTA);
            case PURE -> {
                if (delta.signum() != 0) {
                    throw new PrivacyArgumentException("delta", "{0}",
                            "delta must be 0 with PURE accounting but was " + delta.toPlainString());
                }
            }
        }
        Checks.inClosedOpen("approxDeltaFraction", approxDeltaFraction, BigDecimal.ZERO, BigDecimal.ONE);
    }

    /** A budget with the default δ share for approximate mechanisms. */
    public static Budget of(BigDecimal epsilon, BigDecimal delta, AccountingMode mode) {
        return new Budget(epsilon, delta, mode, DEFAULT_APPROX_DELTA_FRACTION);
    }

    /** Convenience for tests and tools: decimals as written. */
    public static Budget of(double epsilon, double delta, AccountingMode mode) {
        Checks.finite("epsilon", epsilon);
        Checks.finite("delta", delta);
        return of(Decimals.of(epsilon), Decimals.of(delta), mode);
    }

    /** The filter that enforces this budget. */
    public BudgetFilter filter() {
        BudgetFilter cached = FILTERS.get(this);
        if (cached != null) {
            return cached;
        }
        BudgetFilter filter = switch (mode) {
            case ZCDP -> new ZcdpFilter(this);
            case BASIC -> new BasicFilter(this);
            case PURE -> new PureFilter(this);
            case GDP -> new GdpFilter(this);
        };
        if (FILTERS.size() >= FILTER_CACHE_SIZE) {
            FILTERS.clear();
        }
        FILTERS.put(this, filter);
        return filter;
    }

    /**
     * Filters are immutable and derived from the (public) budget alone, but building one solves a
     * conversion numerically (ZCDP: the largest ρ for (ε, δ); GDP: the largest μ), which every
     * admission and quote would otherwise repeat. A budget of each dataset is cached; the map is
     * emptied when it reaches {@value #FILTER_CACHE_SIZE} budgets.
     */
    private static final java.util.Map<Budget, BudgetFilter> FILTERS = new java.util.concurrent.ConcurrentHashMap<>();

    private static final int FILTER_CACHE_SIZE = 4096;
}
