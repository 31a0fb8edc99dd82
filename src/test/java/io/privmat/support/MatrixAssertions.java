package io.privmat.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Assertions on row-major matrices shared by the mechanism tests. */
public final class MatrixAssertions {

    private MatrixAssertions() {}

    /** The k columns of the d × k row-major {@code v} are orthonormal to within {@code tolerance}. */
    public static void assertOrthonormal(double[] v, int d, int k, double tolerance) {
        for (int a = 0; a < k; a++) {
            for (int b = 0; b < k; b++) {
                double dot = 0;
                for (int i = 0; i < d; i++) {
                    dot += v[i * k + a] * v[i * k + b];
                }
                assertThat(dot).as("column %d · column %d", a, b).isCloseTo(a == b ? 1 : 0, within(tolerance));
            }
        }
    }
}
