package io.privmat.ledger;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * Amounts on the tracks a mode uses: ZCDP shows rho and delta, BASIC epsilon and delta, PURE
 * epsilon, GDP rho (there: Σμ²/2). Exact decimals.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TrackView(@Nullable BigDecimal rho, @Nullable BigDecimal epsilon, @Nullable BigDecimal delta) {

    public static TrackView of(Tracks t, AccountingMode mode) {
        return switch (mode) {
            case ZCDP -> new TrackView(t.rho(), null, t.delta());
            case BASIC -> new TrackView(null, t.epsilon(), t.delta());
            case PURE -> new TrackView(null, t.epsilon(), null);
            // GDP keeps Σμ²/2 on the ρ track (= ρ for Gaussian mechanisms); docs/adr/0007-gdp-accounting.md.
            case GDP -> new TrackView(t.rho(), null, null);
        };
    }
}
