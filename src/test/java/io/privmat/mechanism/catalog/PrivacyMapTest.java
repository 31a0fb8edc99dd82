package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.privacy.AccountingMode;
import io.privmat.privacy.ApproxDp;
import io.privmat.privacy.ApproxZcdp;
import io.privmat.privacy.GaussianComposition;
import io.privmat.privacy.GaussianLoss;
import io.privmat.privacy.PureDp;
import io.privmat.privacy.Zcdp;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one composition rule of composite mechanisms ({@link PrivacyMap#compose}, {@link PrivacyMap#calibratedTo}). */
class PrivacyMapTest {

    @Test
    void identicalGaussianStepsAddTheirRho() {
        GaussianLoss step = new GaussianLoss(1.0, 7.0);
        PrivacyMap run = PrivacyMap.compose(5, PrivacyMap.of(step));
        assertThat(run.asRun()).isEqualTo(new Zcdp(step.rho().multiply(BigDecimal.valueOf(5))));
        assertThat(run.approxDp()).as("no step has an (epsilon, delta) view of its own").isNull();
        assertThat(run.charged(AccountingMode.BASIC)).isEqualTo(run.asRun());
        assertThatThrownBy(() -> PrivacyMap.compose(0, PrivacyMap.of(step))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailureEventAddsItsDeltaOnBothViews() {
        PrivacyMap steps = PrivacyMap.compose(2, PrivacyMap.of(new Zcdp(new BigDecimal("0.25"))))
                .calibratedTo(new ApproxDp(BigDecimal.ONE, new BigDecimal("7.5e-7")));
        PrivacyMap whole = PrivacyMap.compose(List.of(steps, PrivacyMap.failure(new BigDecimal("2.5e-7"))));
        assertThat(whole.asRun()).isEqualTo(new ApproxZcdp(new BigDecimal("0.50"), new BigDecimal("2.5e-7")));
        assertThat(whole.approxDp().epsilon()).isEqualByComparingTo("1");
        assertThat(whole.approxDp().delta()).isEqualByComparingTo("1e-6");
        // The order of the parts does not matter.
        PrivacyMap reversed = PrivacyMap.compose(List.of(PrivacyMap.failure(new BigDecimal("2.5e-7")), steps));
        assertThat(((ApproxZcdp) reversed.asRun()).rho()).isEqualByComparingTo("0.5");
        assertThat(reversed.approxDp().delta()).isEqualByComparingTo("1e-6");
    }

    @Test
    void aCalibrationTargetMayNotUnderchargeItsParts() {
        QueryBudget request = new QueryBudget(BigDecimal.ONE, new BigDecimal("1e-6"), null);
        PrivacyMap shares = PrivacyMap.compose(List.of(
                PrivacyMap.calibrated(new GaussianLoss(1, 5), request.share(new BigDecimal("0.9"))),
                PrivacyMap.calibrated(new GaussianLoss(1, 9), request.share(new BigDecimal("0.1")))));
        assertThat(shares.calibratedTo(request).approxDp()).isEqualTo(new ApproxDp(BigDecimal.ONE, new BigDecimal("1e-6")));
        // Parts whose views sum past the target cannot claim it.
        PrivacyMap twice = PrivacyMap.compose(List.of(shares, shares));
        assertThatThrownBy(() -> twice.calibratedTo(request)).isInstanceOf(IllegalStateException.class);
        // A rho budget has no (epsilon, delta) view to state.
        PrivacyMap byRho = PrivacyMap.calibrated(new GaussianLoss(1, 5), new QueryBudget(null, null, new BigDecimal("0.02")));
        assertThat(byRho.approxDp()).isNull();
    }

    @Test
    void pureStepsComposePure() {
        PrivacyMap run = PrivacyMap.compose(4, PrivacyMap.of(new PureDp(new BigDecimal("0.25"))));
        assertThat(run.asRun()).isEqualTo(new PureDp(new BigDecimal("1.00")));
        assertThat(run.charged(AccountingMode.PURE)).isEqualTo(run.asRun());
        assertThatThrownBy(() -> PrivacyMap.compose(List.of(PrivacyMap.of(new PureDp(BigDecimal.ONE)),
                PrivacyMap.of(new Zcdp(BigDecimal.ONE))))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void gaussianPartsKeepAGaussianViewThatOnlyGdpCharges() {
        GaussianLoss a = new GaussianLoss(1.0, 7.0);
        GaussianLoss b = new GaussianLoss(2.0, 3.0);
        PrivacyMap inner = PrivacyMap.compose(3, PrivacyMap.of(a));
        PrivacyMap run = PrivacyMap.compose(List.of(inner, PrivacyMap.of(b)))
                .calibratedTo(new ApproxDp(BigDecimal.ONE, new BigDecimal("1e-6")));
        BigDecimal rho = a.rho().multiply(BigDecimal.valueOf(3)).add(b.rho());
        assertThat(run.gaussian()).isEqualTo(new GaussianComposition(rho, 4));
        assertThat(run.charged(AccountingMode.GDP)).isEqualTo(run.gaussian());
        // Every other mode is charged what it was before the Gaussian view existed.
        assertThat(run.charged(AccountingMode.ZCDP)).isEqualTo(new Zcdp(rho));
        assertThat(run.charged(AccountingMode.BASIC)).isEqualTo(new ApproxDp(BigDecimal.ONE, new BigDecimal("1e-6")));
        // A zCDP part (no Gaussian statement), or a failure event, drops the view: GDP refuses those.
        assertThat(PrivacyMap.compose(List.of(PrivacyMap.of(a), PrivacyMap.of(new Zcdp(BigDecimal.ONE)))).gaussian())
                .isNull();
        assertThat(PrivacyMap.compose(List.of(PrivacyMap.of(a), PrivacyMap.failure(new BigDecimal("1e-9")))).gaussian())
                .isNull();
    }
}
