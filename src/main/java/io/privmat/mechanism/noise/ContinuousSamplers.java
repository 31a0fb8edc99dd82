package io.privmat.mechanism.noise;

/**
 * Floating-point samplers fed by the CSPRNG, for mechanisms whose noise is not an additive grid
 * release: standard normals (polar method) and gamma/χ² variates (Marsaglia–Tsang 2000). Outputs
 * built from these are snapped to a grid by the mechanism; that removes the low-order bits but is
 * not a proof against floating-point attacks (docs/mechanisms/covariance.md, "Numerics").
 */
public final class ContinuousSamplers {

    private ContinuousSamplers() {}

    public static double standardNormal(NoiseSource random) {
        double u;
        double v;
        double s;
        do {
            u = 2 * random.nextDouble() - 1;
            v = 2 * random.nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        return u * Math.sqrt(-2 * Math.log(s) / s);
    }

    /** Gamma(shape, 1), shape &gt; 0 (Marsaglia and Tsang, ACM TOMS 2000; boost for shape &lt; 1). */
    public static double gamma(double shape, NoiseSource random) {
        if (!(shape > 0)) {
            throw new IllegalArgumentException("shape must be positive");
        }
        if (shape < 1) {
            double u = random.nextDouble();
            while (u == 0) {
                u = random.nextDouble();
            }
            return gamma(shape + 1, random) * Math.pow(u, 1 / shape);
        }
        double dd = shape - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * dd);
        while (true) {
            double x = standardNormal(random);
            double v = 1 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = random.nextDouble();
            if (u == 0) {
                continue;
            }
            if (Math.log(u) < 0.5 * x * x + dd - dd * v + dd * Math.log(v)) {
                return dd * v;
            }
        }
    }

    /** χ² with ν degrees of freedom. */
    public static double chiSquared(double degrees, NoiseSource random) {
        return 2 * gamma(degrees / 2, random);
    }
}
