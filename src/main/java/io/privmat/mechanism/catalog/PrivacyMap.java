package io.privmat.mechanism.catalog;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.ApproxZcdp;
import io.privmat.privacy.GaussianComposition;
import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.PureDp;
import io.privmat.privacy.Zcdp;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A calibrated mechanism's privacy loss in every view the budget filters need, decided from public
 * parameters only. {@code asRun} is the loss of the noise actually drawn (for a Gaussian on a grid:
 * its exact ρ = Δ′²/2σ², μ-GDP); {@code approxDp}, when present, is an (ε, δ) guarantee the mechanism
 * also meets (the pair its Gaussian was calibrated to, or its own (ε, δ) analysis).
 *
 * {@code gaussian}, when present, is the Gaussian-DP view of a composite made only of Gaussian
 * releases ({@link GaussianComposition}, exactly √(Σμ_i²)-GDP): its loss as run stays the zCDP sum
 * (so what ZCDP datasets are charged, and stored plans, do not change), and GDP accounting charges
 * this view instead of refusing the zCDP loss.
 *
 * <p>What a dataset is charged follows from these by one rule ({@link #charged}), so no planner
 * decides it: under BASIC the (ε, δ) view (when there is one), under GDP the Gaussian view (when
 * there is one), otherwise the loss as run (the filter converts it to its tracks); under PURE only
 * a pure ε-DP loss is chargeable.
 *
 * <p>A composite mechanism (several releases, or a release plus a failure event) builds its map from
 * its parts with {@link #compose} — the one composition rule — and, when it was calibrated as a whole
 * to a requested (ε, δ), states that with {@link #calibratedTo}. No mechanism adds losses by hand.
 * The facts behind the rule are in docs/accounting.md §2 (Composition).
 */
public record PrivacyMap(PrivacyLoss asRun, @Nullable ApproxDp approxDp, @Nullable GaussianComposition gaussian) {

    /** A map without a Gaussian-composition view. */
    public PrivacyMap(PrivacyLoss asRun, @Nullable ApproxDp approxDp) {
        this(asRun, approxDp, null);
    }

    public static PrivacyMap of(PrivacyLoss asRun) {
        return new PrivacyMap(asRun, asRun instanceof ApproxDp a ? a : asRun instanceof PureDp p
                ? new ApproxDp(p.epsilon(), BigDecimal.ZERO) : null);
    }

    /**
     * A mechanism calibrated to {@code budget}: its exact loss as run and, when the budget is an
     * (ε, δ) pair, that pair as its (ε, δ) view (a Gaussian calibrated analytically, Balle and Wang
     * 2018; or a composite calibrated as a whole, see {@link #calibratedTo}).
     */
    public static PrivacyMap calibrated(PrivacyLoss asRun, QueryBudget budget) {
        return of(asRun).calibratedTo(budget);
    }

    /**
     * An event of probability at most {@code delta}, decided from public parameters, outside which
     * the rest of the analysis holds (e.g. a random projection's norm bound): δ-approximate 0-zCDP,
     * and (0, δ) in the (ε, δ) view.
     */
    public static PrivacyMap failure(BigDecimal delta) {
        return new PrivacyMap(new ApproxZcdp(BigDecimal.ZERO, delta), new ApproxDp(BigDecimal.ZERO, delta));
    }

    /** The loss the ledger charges under {@code mode}. */
    public PrivacyLoss charged(AccountingMode mode) {
        return switch (mode) {
            case BASIC -> approxDp != null ? approxDp : asRun;
            case GDP -> gaussian != null ? gaussian : asRun;
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
     * The (ε, δ) view of a composite calibrated as a whole to {@code target}: L Gaussian steps whose σ
     * was set so that their Gaussian-DP composition (μ = √(Σ μᵢ²), Dong, Roth and Su 2022) meets
     * (ε, δ) exactly, or parts cut from the target by shares. The loss as run is unchanged. When the
     * parts' own (ε, δ) views compose (basic composition) to more than the target, the target would
     * undercharge and this refuses.
     *
     * @throws IllegalStateException when the parts' composed (ε, δ) view exceeds the target
     */
    public PrivacyMap calibratedTo(ApproxDp target) {
        if (approxDp != null && (approxDp.epsilon().compareTo(target.epsilon()) > 0
                || approxDp.delta().compareTo(target.delta()) > 0)) {
            throw new IllegalStateException("the parts compose to " + approxDp + ", more than the calibration target "
                    + target);
        }
        return new PrivacyMap(asRun, target, gaussian);
    }

    /** {@link #calibratedTo(ApproxDp)} the budget's (ε, δ); unchanged when the budget is ρ. */
    public PrivacyMap calibratedTo(QueryBudget budget) {
        return budget.isRho() ? this : calibratedTo(new ApproxDp(budget.epsilon(), budget.delta()));
    }

    /** {@code times} runs of the same part composed (e.g. L identical Gaussian iterations). */
    public static PrivacyMap compose(int times, PrivacyMap part) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be ≥ 1");
        }
        return compose(Collections.nCopies(times, part));
    }

    /**
     * Sequential composition of the parts of a composite mechanism (e.g. centred covariance = column
     * sums + Gram; Hardt–Roth's two Gaussian steps plus the failure event of its random projection;
     * the L iterations of the noisy power method): ρ's add (Gaussian, zCDP and approximate-zCDP
     * parts, Bun and Steinke 2016), δ's of approximate-zCDP parts add, (ε, δ) views add (basic
     * composition), pure ε's add. Mixed pure and zCDP parts are not composed here (no composite
     * needs it). Exact decimal sums: the result does not depend on the order of the parts. When every
     * part is a Gaussian release ({@link GaussianLoss}, or a composite with a Gaussian view), the
     * result also carries their {@link GaussianComposition} (same ρ, exactly √(Σμ_i²)-GDP, Dong, Roth,
     * Su 2022, Corollary 3.3).
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
        boolean allGaussian = true;
        int gaussianParts = 0;
        for (PrivacyMap p : parts) {
            PrivacyLoss l = p.asRun();
            if (p.gaussian() != null) {
                gaussianParts += p.gaussian().parts();
            } else if (l instanceof GaussianLoss) {
                gaussianParts += 1;
            } else {
                allGaussian = false;
            }
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
            // All-Gaussian parts have delta = 0 and a positive ρ (each GaussianLoss has Δ, σ > 0).
            GaussianComposition gaussian = allGaussian && !parts.isEmpty() && delta.signum() == 0 && rho.signum() > 0
                    ? new GaussianComposition(rho, gaussianParts) : null;
            return new PrivacyMap(delta.signum() == 0 ? new Zcdp(rho) : new ApproxZcdp(rho, delta), approx, gaussian);
        }
        throw new IllegalArgumentException("cannot compose these losses");
    }
}
