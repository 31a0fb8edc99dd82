package io.privmat.ledger;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.privmat.api.JsonNumbers;
import io.privmat.json.ProblemProperties;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Amounts on the tracks a mode uses: ZCDP shows rho and delta, BASIC epsilon and delta, PURE
 * epsilon, GDP rho (there: Σμ²/2). The tracks are exact decimals; the view shows doubles rounded
 * the way {@link JsonNumbers} says: charges up, what is available down.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@io.swagger.v3.oas.annotations.media.Schema(description = "Amounts on the tracks the accounting mode uses (ZCDP: rho "
        + "and delta; BASIC: epsilon and delta; PURE: epsilon; GDP: rho). Doubles; the exact decimal amounts are "
        + "rounded so that no rounding favours the analyst: charges, spent and reserved amounts up, caps and "
        + "remaining amounts down")
public record TrackView(@Nullable Double rho, @Nullable Double epsilon, @Nullable Double delta) {

    /** A charge, a spent or reserved amount: each track rounded up. */
    public static TrackView charged(Tracks t, AccountingMode mode) {
        return of(t, mode, JsonNumbers::charged);
    }

    /** A cap or what remains: each track rounded down. */
    public static TrackView available(Tracks t, AccountingMode mode) {
        return of(t, mode, JsonNumbers::available);
    }

    /** The tracks shown, as a problem's member: the same object this view is written as (nulls left out). */
    public ProblemProperties members() {
        ProblemProperties out = ProblemProperties.none();
        if (rho != null) {
            out = out.with("rho", rho);
        }
        if (epsilon != null) {
            out = out.with("epsilon", epsilon);
        }
        return delta == null ? out : out.with("delta", delta);
    }

    private static TrackView of(Tracks t, AccountingMode mode, Function<BigDecimal, @Nullable Double> shown) {
        return switch (mode) {
            case ZCDP -> new TrackView(shown.apply(t.rho()), null, shown.apply(t.delta()));
            case BASIC -> new TrackView(null, shown.apply(t.epsilon()), shown.apply(t.delta()));
            case PURE -> new TrackView(null, shown.apply(t.epsilon()), null);
            // GDP keeps Σμ²/2 on the ρ track (= ρ for Gaussian mechanisms); docs/adr/0007-gdp-accounting.md.
            case GDP -> new TrackView(shown.apply(t.rho()), null, null);
        };
    }
}
