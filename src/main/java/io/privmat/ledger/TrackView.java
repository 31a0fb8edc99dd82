package io.privmat.ledger;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * Amounts on the tracks a mode uses: ZCDP shows rho and delta, BASIC epsilon and delta, PURE
 * epsilon. Exact decimals.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TrackView(@Nullable BigDecimal rho, @Nullable BigDecimal epsilon, @Nullable BigDecimal delta) {

    public static TrackView of(Tracks t, AccountingMode mode) {
        return switch (mode) {
            case ZCDP -> new TrackView(t.rho(), null, t.delta());
            case BASIC -> new TrackView(null, t.epsilon(), t.delta());
            case PURE -> new TrackView(null, t.epsilon(), null);
        };
    }
}
