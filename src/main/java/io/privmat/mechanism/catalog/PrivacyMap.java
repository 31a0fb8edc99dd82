package io.privmat.mechanism.catalog;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.ApproxZcdp;
import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.PureDp;
import io.privmat.privacy.Zcdp;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A calibrated mechanism's privacy loss in every view the budget filters need, decided from public
 * parameters only. {@code asRun} is the loss of the noise actually drawn (for a Gaussian on a grid:
 * its exact ρ = Δ′²/2σ², μ-GDP); {@code approxDp}, when present, is an (ε, δ) guarantee the mechanism
 * also meets (the pair its Gaussian was calibrated to, or its own (ε, δ) analysis).
 *
 * <p>What a dataset is charged follows from these two by one rule ({@link #charged}), so no planner
 * decides it: under BASIC the (ε, δ) view (when there is one), otherwise the loss as run (the filter
 * converts it to its tracks); under PURE only a pure ε-DP loss is chargeable.
 */
public record PrivacyMap(PrivacyLoss asRun, @Nullable ApproxDp approxDp) {

    public static PrivacyMap of(PrivacyLoss asRun) {
        return new PrivacyMap(asRun, asRun instanceof ApproxDp a ? a : asRun instanceof PureDp p
                ? new ApproxDp(p.epsilon(), BigDecimal.ZERO) : null);
    }

    /** The loss the ledger charges under {@code mode}. */
    public PrivacyLoss charged(AccountingMode mode) {
        return switch (mode) {
            case BASIC -> approxDp != null ? approxDp : asRun;
            case PURE -> {
                if (!(asRun instanceof PureDp)) {
                    throw new IllegalStateException("not pure epsilon-DP");
                }
                yield asRun;
            }
            default -> asRun;
        };
    }

    /**
     * Sequential composition of the parts of a composite mechanism (e.g. centred covariance = column
     * sums + Gram): ρ's add (Gaussian and zCDP parts), (ε, δ) views add (basic composition), pure ε's
     * add. Mixed pure and zCDP parts are not composed here (no composite needs it).
     */
    public static PrivacyMap compose(List<PrivacyMap> parts) {
        BigDecimal rho = BigDecimal.ZERO;
        BigDecimal delta = BigDecimal.ZERO;
        BigDecimal eps = BigDecimal.ZERO;
        boolean allPure = true;
        boolean allZcdp = true;
        boolean allApprox = true;
        BigDecimal approxEps = BigDecimal.ZERO;
        BigDecimal approxDelta = BigDecimal.ZERO;
        for (PrivacyMap p : parts) {
            PrivacyLoss l = p.asRun();
            if (l instanceof GaussianLoss g) {
                rho = rho.add(g.rho());
                allPure = false;
            } else if (l instanceof Zcdp z) {
                rho = rho.add(z.rho());
                allPure = false;
            } else if (l instanceof ApproxZcdp a) {
                rho = rho.add(a.rho());
                delta = delta.add(a.delta());
                allPure = false;
            } else if (l instanceof PureDp e) {
                eps = eps.add(e.epsilon());
                allZcdp = false;
            } else {
                allPure = false;
                allZcdp = false;
            }
            if (p.approxDp() == null) {
                allApprox = false;
            } else {
                approxEps = approxEps.add(p.approxDp().epsilon());
                approxDelta = approxDelta.add(p.approxDp().delta());
            }
        }
        ApproxDp approx = allApprox ? new ApproxDp(approxEps, approxDelta) : null;
        if (allPure) {
            return new PrivacyMap(new PureDp(eps), approx);
        }
        if (allZcdp) {
            return new PrivacyMap(delta.signum() == 0 ? new Zcdp(rho) : new ApproxZcdp(rho, delta), approx);
        }
        throw new IllegalArgumentException("cannot compose these losses");
    }
}
