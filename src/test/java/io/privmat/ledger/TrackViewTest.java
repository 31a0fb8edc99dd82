package io.privmat.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class TrackViewTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A refusal's tracks (budget-exhausted, allocation-conflict) are written as the view itself is. */
    @Test
    void membersAreTheViewAsItIsWritten() {
        Tracks t = new Tracks(new BigDecimal("0.123456789012345678901234567890123"), new BigDecimal("1.5"),
                new BigDecimal("1e-7"));
        for (AccountingMode mode : AccountingMode.values()) {
            for (TrackView v : new TrackView[] {TrackView.charged(t, mode), TrackView.available(t, mode)}) {
                assertThat(JSON.writeValueAsString(v.members().asMap())).as(mode.name())
                        .isEqualTo(JSON.writeValueAsString(v));
            }
        }
    }
}
