package io.privmat.mechanism.catalog;

import io.privmat.mechanism.covariance.BinghamAcceptance;

/**
 * What the contract says about the exact Bingham sampler used by EIGEN_SAMPLING and ORBIT_SAMPLING:
 * the largest d it accepts and how its failure is kept independent of the data
 * (docs/mechanisms/covariance.md, "Sampler failure"; docs/adr/0006-privacy-hardening.md).
 */
final class Samplers {

    /** The largest number of columns for which the sampler's failure is bounded whatever the data (12). */
    static final int MAX_COLUMNS = BinghamAcceptance.maxDimension();

    /** For summaries: the limit, refused at planning, before any charge. */
    static final String LIMIT = "Datasets with more than " + MAX_COLUMNS + " columns are refused at planning "
            + "(the exact sampler's failure probability is bounded independently of the data only up to there).";

    /** The policy, as a public noise fact. */
    static final String POLICY = "data-independent failure bound: the exact rejection sampler stops after a proposal "
            + "cap fixed from d alone, so it fails with probability at most samplerFailureBound on every input; a "
            + "failed job keeps its charge (not charged as delta); d > " + MAX_COLUMNS + " is refused at planning";

    private Samplers() {}
}
