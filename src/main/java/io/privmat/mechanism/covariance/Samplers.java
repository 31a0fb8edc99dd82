package io.privmat.mechanism.covariance;

import io.privmat.mechanism.catalog.Limits;

/**
 * What the contract says about the exact Bingham sampler, for every mechanism that samples with it
 * (eigenvectors of the covariance, subspaces of the low-rank family): the largest d it accepts and
 * how its failure is kept independent of the data (docs/mechanisms/covariance.md, "Sampler
 * failure"; docs/adr/0006-privacy-hardening.md).
 */
public final class Samplers {

    /**
     * The largest number of columns these mechanisms accept: the Gram limit (5000). The sampler's own
     * data-independent failure bound holds up to {@link BinghamAcceptance#maxDimension()} (16384), so
     * the Gram limit is the binding one.
     */
    public static final int MAX_COLUMNS = Math.min(BinghamAcceptance.maxDimension(), Limits.MAX_GRAM_DIMENSION);

    /** For summaries: the limit, refused at planning, before any charge. */
    public static final String LIMIT = "Datasets with more than " + MAX_COLUMNS + " columns are refused at planning "
            + "(the exact sampler's failure probability is bounded independently of the data for up to "
            + BinghamAcceptance.maxDimension() + ").";

    /** The policy, as a public noise fact. */
    public static final String POLICY = "data-independent failure bound: every proposal of the exact rejection sampler is "
            + "accepted with probability at least sqrt(2/(e d)) whatever the data (a proven bound), and the sampler "
            + "stops after a proposal cap fixed from d alone, so it fails with probability at most samplerFailureBound "
            + "on every input; a failed job keeps its charge (not charged as delta); d > " + MAX_COLUMNS
            + " is refused at planning";

    private Samplers() {}
}
