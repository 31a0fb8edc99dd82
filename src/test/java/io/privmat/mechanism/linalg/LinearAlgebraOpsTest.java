package io.privmat.mechanism.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The row-major BLAS wrappers against naive triple loops. */
class LinearAlgebraOpsTest {

    private static double[] random(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.nextGaussian();
        }
        return x;
    }

    @Test
    void productsMatchNaiveLoops() {
        int m = 7;
        int k = 5;
        int n = 3;
        double[] a = random(m * k, 1);
        double[] b = random(k * n, 2);
        double[] ab = new double[m * n];
        LinearAlgebraOps.multiply(a, m, k, b, n, ab);
        double[] c = random(n * k, 3);
        double[] acT = new double[m * n];
        LinearAlgebraOps.multiplyTransB(a, m, k, c, n, acT);
        double[] e = random(m * n, 4);
        double[] start = random(k * n, 5);
        double[] aTe = start.clone();
        LinearAlgebraOps.addMultiplyTransA(a, m, k, e, n, aTe);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double p = 0;
                double q = 0;
                for (int t = 0; t < k; t++) {
                    p += a[i * k + t] * b[t * n + j];
                    q += a[i * k + t] * c[j * k + t];
                }
                assertThat(ab[i * n + j]).isCloseTo(p, within(1e-12));
                assertThat(acT[i * n + j]).isCloseTo(q, within(1e-12));
            }
        }
        for (int t = 0; t < k; t++) {
            for (int j = 0; j < n; j++) {
                double r = start[t * n + j];
                for (int i = 0; i < m; i++) {
                    r += a[i * k + t] * e[i * n + j];
                }
                assertThat(aTe[t * n + j]).isCloseTo(r, within(1e-12));
            }
        }
    }
}
