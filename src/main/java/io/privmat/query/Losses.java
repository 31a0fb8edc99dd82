package io.privmat.query;

import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.ApproxZcdp;
import io.privmat.privacy.BoundedRangeDp;
import io.privmat.privacy.GaussianComposition;
import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PrivacyLoss;
import io.privmat.privacy.PureDp;
import io.privmat.privacy.Zcdp;
import java.util.LinkedHashMap;
import java.util.Map;

/** Privacy losses as JSON-ready maps (for jobs, ledger entries and results). */
final class Losses {

    private Losses() {}

    static Map<String, Object> describe(PrivacyLoss loss) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("notion", loss.notion());
        if (loss instanceof PureDp p) {
            m.put("epsilon", p.epsilon());
        } else if (loss instanceof ApproxDp a) {
            m.put("epsilon", a.epsilon());
            m.put("delta", a.delta());
        } else if (loss instanceof Zcdp z) {
            m.put("rho", z.rho());
        } else if (loss instanceof ApproxZcdp a) {
            m.put("rho", a.rho());
            m.put("delta", a.delta());
        } else if (loss instanceof BoundedRangeDp b) {
            m.put("epsilon", b.epsilon());
        } else if (loss instanceof GaussianLoss g) {
            m.put("l2Sensitivity", g.l2Sensitivity());
            m.put("sigma", g.sigma());
            m.put("rho", g.rho());
            m.put("mu", g.mu());
        } else if (loss instanceof GaussianComposition c) {
            m.put("rho", c.rho());
            m.put("mu", c.mu());
            m.put("parts", c.parts());
        }
        return m;
    }
}
