package io.privmat.mechanism.lowrank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** PEELING clamps normalised eigenvalues at n, not n·B² (which truncated them when B < 1). */
class PeelingClampTest {

    @Test
    void topSingularValueIsNotTruncatedWhenTheRowBoundIsBelowOne() {
        int d = 3;
        int n = 100;
        double bound = 0.5;
        double[] gram = new double[d * d];
        gram[0] = n * bound * bound; // n rows (B, 0, 0): σ₁ = √n·B = 5
        OrbitSamplingMechanism m = OrbitSamplingMechanism.of(d, 1, bound, NeighbouringRelation.REPLACE_ONE,
                new BigDecimal("20"), OrbitSamplingMechanism.Spectrum.PEELING);
        // The caller passes the public bound on XᵀX's eigenvalues, n·B²; before the fix the
        // normalised eigenvalue 100 was clamped at 25 and σ₁ came out as 2.5.
        Factorization f = m.release(gram, n * bound * bound, TestNoiseSources.seeded(4));
        assertThat(f.s()[0]).isCloseTo(5.0, within(0.3));
    }
}
