package io.privmat.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.ApproxZcdp;
import io.privmat.privacy.BoundedRangeDp;
import io.privmat.privacy.GaussianComposition;
import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.PureDp;
import io.privmat.privacy.Zcdp;
import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The loss document stored with a job, its ledger entry, its releases and a subscription: the
 * mechanism's loss as run and the loss charged, each as its notion and that notion's exact values
 * (decimals of up to 34 digits, doubles as doubles). Its served schema is {@code api.LossDocument}.
 */
@JsonPropertyOrder({"mechanism", "charged"})
public record LossDocument(@Nullable Entry mechanism, @Nullable Entry charged) {

    /** The document of a plan's two losses. */
    public static LossDocument of(Plan plan) {
        return new LossDocument(Entry.of(plan.mechanismLoss()), Entry.of(plan.chargedLoss()));
    }

    /**
     * One loss as stored: its notion, then its values in the order each notion lists them (pure-DP and
     * bounded-range: ε; approx-DP: ε, δ; zCDP: ρ; approx-zCDP: ρ, δ; Gaussian: Δ, σ, ρ, μ;
     * Gaussian-composition: ρ, μ, parts). A Gaussian loss's ρ and μ, and a composition's μ, follow
     * from its other values; they are stored for readers and checked on reading.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"notion", "epsilon", "l2Sensitivity", "sigma", "rho", "delta", "mu", "parts"})
    public record Entry(@Nullable String notion, @Nullable BigDecimal epsilon, @Nullable Double l2Sensitivity,
            @Nullable Double sigma, @Nullable BigDecimal rho, @Nullable BigDecimal delta, @Nullable Double mu,
            @Nullable Integer parts) {

        static Entry of(PrivacyLoss loss) {
            if (loss instanceof PureDp p) {
                return new Entry(p.notion(), p.epsilon(), null, null, null, null, null, null);
            }
            if (loss instanceof ApproxDp a) {
                return new Entry(a.notion(), a.epsilon(), null, null, null, a.delta(), null, null);
            }
            if (loss instanceof Zcdp z) {
                return new Entry(z.notion(), null, null, null, z.rho(), null, null, null);
            }
            if (loss instanceof ApproxZcdp a) {
                return new Entry(a.notion(), null, null, null, a.rho(), a.delta(), null, null);
            }
            if (loss instanceof BoundedRangeDp b) {
                return new Entry(b.notion(), b.epsilon(), null, null, null, null, null, null);
            }
            if (loss instanceof GaussianLoss g) {
                return new Entry(g.notion(), null, g.l2Sensitivity(), g.sigma(), g.rho(), null, g.mu(), null);
            }
            if (loss instanceof GaussianComposition c) {
                return new Entry(c.notion(), null, null, null, c.rho(), null, c.mu(), c.parts());
            }
            throw new IllegalArgumentException("a loss without a stored form: " + loss.notion());
        }

        /**
         * The loss this entry states.
         *
         * @throws IllegalArgumentException when it is not a loss of its notion: an unknown notion, a value
         *     missing, a value the notion does not have, a value out of range, or a stored ρ or μ other
         *     than the one its Gaussian values give
         */
        PrivacyLoss loss() {
            PrivacyLoss loss = switch (Objects.requireNonNullElse(notion, "")) {
                case "pure-DP" -> new PureDp(required("epsilon", epsilon));
                case "approx-DP" -> new ApproxDp(required("epsilon", epsilon), required("delta", delta));
                case "zCDP" -> new Zcdp(required("rho", rho));
                case "approx-zCDP" -> new ApproxZcdp(required("rho", rho), required("delta", delta));
                case "bounded-range" -> new BoundedRangeDp(required("epsilon", epsilon));
                case "Gaussian" -> new GaussianLoss(required("l2Sensitivity", l2Sensitivity), required("sigma", sigma));
                case "Gaussian-composition" -> new GaussianComposition(required("rho", rho), required("parts", parts));
                default -> throw new IllegalArgumentException("unknown notion " + notion);
            };
            if (!sameValues(this, of(loss))) {
                throw new IllegalArgumentException("not a " + notion + " loss as stored: " + this);
            }
            return loss;
        }

        private static <T> T required(String name, @Nullable T value) {
            if (value == null) {
                throw new IllegalArgumentException("the stored loss has no " + name);
            }
            return value;
        }
    }

    /**
     * The two losses this document states.
     *
     * @throws IllegalArgumentException when an entry is missing or not a loss ({@link Entry#loss()})
     */
    Losses losses() {
        if (mechanism == null || charged == null) {
            throw new IllegalArgumentException("the stored loss document lacks a loss");
        }
        return new Losses(mechanism.loss(), charged.loss());
    }

    /** A plan's loss as run and as charged, read back from its stored document. */
    public record Losses(PrivacyLoss mechanism, PrivacyLoss charged) {}

    /** Equal values (decimals by value, whatever their scale), the same values present. */
    static boolean sameValues(Entry a, Entry b) {
        return Objects.equals(a.notion(), b.notion()) && same(a.epsilon(), b.epsilon())
                && Objects.equals(a.l2Sensitivity(), b.l2Sensitivity()) && Objects.equals(a.sigma(), b.sigma())
                && same(a.rho(), b.rho()) && same(a.delta(), b.delta()) && Objects.equals(a.mu(), b.mu())
                && Objects.equals(a.parts(), b.parts());
    }

    private static boolean same(@Nullable BigDecimal a, @Nullable BigDecimal b) {
        return a == null ? b == null : b != null && a.compareTo(b) == 0;
    }
}
