package io.privmat.query;

import io.privmat.privacy.PrivacyLoss;
import java.util.Map;

/**
 * A planned query: everything decided from public parameters before any data is read.
 *
 * @param parameters the normalised public parameters (stored with the job and the ledger entry)
 * @param mechanismLoss the loss of the mechanism as it will run (e.g. the grid-inflated Gaussian)
 * @param chargedLoss what the ledger charges: {@code mechanismLoss}, or for BASIC accounting the
 *     (ε, δ) the Gaussian was calibrated to
 * @param noise public facts about the noise (σ or scale, granularity, sensitivity)
 */
public record QueryPlan(String kind, String mechanism, Map<String, Object> parameters, PrivacyLoss mechanismLoss,
        PrivacyLoss chargedLoss, Map<String, Object> noise) {}
