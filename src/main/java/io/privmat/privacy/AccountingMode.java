package io.privmat.privacy;

/** How a dataset's budget composes its charges; fixed when the dataset is created. */
public enum AccountingMode {
    /**
     * ρ-zCDP track plus a δ track for (ε, δ)-only mechanisms (approximate zCDP). The default.
     * Valid under fully adaptive composition (Feldman and Zrnic 2021; Whitehouse, Ramdas, Rogers,
     * Wu 2023, approximate-zCDP filter). See {@link ZcdpFilter}.
     */
    ZCDP,
    /**
     * Basic composition: Σε ≤ ε_B and Σδ ≤ δ_B. Valid under fully adaptive composition (Rogers,
     * Roth, Ullman, Vadhan 2016). See {@link BasicFilter}.
     */
    BASIC,
    /** Pure ε-DP: δ_B = 0 and Σε ≤ ε_B. See {@link PureFilter}. */
    PURE,
    /**
     * Gaussian DP: Σμ_i² ≤ μ_B² with μ_B exact for (ε_B, δ_B); exact for Gaussian mechanisms and
     * valid under fully adaptive composition (Smith and Thakurta 2022). Charges Gaussian and pure
     * losses only. See {@link GdpFilter} and docs/adr/0007-gdp-accounting.md.
     */
    GDP
}
