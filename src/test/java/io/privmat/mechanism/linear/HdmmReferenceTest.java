package io.privmat.mechanism.linear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.catalog.OptimizationControl;
import io.privmat.mechanism.linalg.LinearAlgebra;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The published reference points of the HDMM repository (dpcomp-org/hdmm,
 * experiments/journal/oned.csv, written by oned.py): per-query RMSE
 * √(tr(WᵀW·(AᵀA)⁻¹)·max_j (AᵀA)_jj / m), i.e. Gaussian noise of standard deviation 1 per unit of the
 * strategy's L2 sensitivity, m = the number of queries; SVDB = √((Σᵢ √λᵢ(WᵀW))² / (n·m)). The CSV's
 * optimised column is the convex (ε, δ) strategy of Yuan et al. 2016 ("YuanConvex").
 */
class HdmmReferenceTest {

    // oned.csv rows (domain, workload): Identity, H2, YuanConvex, SVDB.
    static final double[] ALL_RANGE_256 = {9.273618495495704, 3.835363996450649, 2.902169221655514, 2.8763585581409346};
    static final double[] PREFIX_256 = {11.335784048754634, 3.1022372719717644, 2.528223367467486, 2.4714459649021547};
    static final double[] ALL_RANGE_1024 = {18.49324200890693, 4.654169977877171, 3.568100282990444, 3.4923407505042805};
    static final double[] PREFIX_1024 = {22.638462845343543, 3.6861586552943884, 3.0652911247160457, 2.9095843877394243};

    static double svdBound(Workload w) {
        int n = w.cells();
        double s = 0;
        for (double v : LinearAlgebra.eigen(w.denseGram(), n).values()) {
            s += Math.sqrt(Math.max(v, 0));
        }
        return Math.sqrt(s * s / n / w.queries());
    }

    /** HDMM's rootmse: Gaussian noise σ = ‖A‖_{1→2}. */
    static double rootMse(Workload w, Strategy s) {
        double d = s.maxColumnL2();
        return Math.sqrt(Strategies.totalVariance(w, s) * d * d / w.queries());
    }

    static void checkFixed(Workload w, double[] reference) {
        assertThat(rootMse(w, Strategies.identity(w))).isCloseTo(reference[0], within(1e-9 * reference[0]));
        assertThat(rootMse(w, Strategies.hierarchical(w))).isCloseTo(reference[1], within(1e-9 * reference[1]));
        assertThat(svdBound(w)).isCloseTo(reference[3], within(1e-9 * reference[3]));
    }

    static double checkOptimized(Workload w, double[] reference) {
        ProductStrategy s = Strategies.optimized(w, OptimizerOptions.convex(), OptimizationControl.none());
        double rmse = rootMse(w, s);
        assertThat(rmse).isCloseTo(Math.sqrt(s.info().objective() / w.queries()), within(1e-9 * rmse));
        assertThat(rmse).isLessThanOrEqualTo(1.05 * reference[3]);
        // At least as good as the CSV's optimised strategy (which was not fully converged).
        assertThat(rmse).isLessThanOrEqualTo(reference[2]);
        // The certified lower bound over all L2 strategies lies between the SVD bound and our RMSE.
        double lower = Math.sqrt(s.info().lowerBound() / w.queries());
        assertThat(lower).isBetween(reference[3] * (1 - 1e-9), rmse);
        return rmse;
    }

    @Test
    void identityAndHierarchicalAt1024MatchThePrintedDigits() {
        checkFixed(Workload.allRange(Domain.of(1024)), ALL_RANGE_1024);
        checkFixed(Workload.prefix(Domain.of(1024)), PREFIX_1024);
    }

    @Test
    void allReferencePointsAt256() {
        Workload ranges = Workload.allRange(Domain.of(256));
        Workload prefix = Workload.prefix(Domain.of(256));
        checkFixed(ranges, ALL_RANGE_256);
        checkFixed(prefix, PREFIX_256);
        checkOptimized(ranges, ALL_RANGE_256);
        checkOptimized(prefix, PREFIX_256);
    }

    @Test
    @Tag("slow")
    void optimizedAt1024WithinFivePercentOfTheSvdBound() {
        for (Workload w : new Workload[] {Workload.allRange(Domain.of(1024)), Workload.prefix(Domain.of(1024))}) {
            long start = System.nanoTime();
            double rmse = checkOptimized(w, w.kind().equals("ALL_RANGE") ? ALL_RANGE_1024 : PREFIX_1024);
            System.out.printf("%s n = 1024: OPTIMIZED %.4f in %.1f s%n", w.kind(), rmse,
                    (System.nanoTime() - start) / 1e9);
        }
    }
}
