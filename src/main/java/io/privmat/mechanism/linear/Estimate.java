package io.privmat.mechanism.linear;

import io.privmat.mechanism.linalg.LinearAlgebraOps;
import org.jspecify.annotations.Nullable;

/**
 * A released estimate x̂ with what is needed to answer any further linear query from it for free
 * (post-processing): the public strategy and the noise variance per measurement. A service stores
 * x̂ and the noise variance with the release and rebuilds this from the cached strategy.
 */
public final class Estimate {

    private final Domain domain;
    private final Strategy strategy;
    private final double noiseVariance;
    private final double[] values;
    private volatile @Nullable CellCovariance covariance;
    private volatile double @Nullable [] summedArea;

    public Estimate(Domain domain, Strategy strategy, double noiseVariance, double[] values) {
        if (values.length != domain.cells() || strategy.cells() != domain.cells()) {
            throw LinearQueryException.shape("estimate", "the estimate, strategy and domain disagree on n");
        }
        this.domain = domain;
        this.strategy = strategy;
        this.noiseVariance = noiseVariance;
        this.values = values;
    }

    public Domain domain() {
        return domain;
    }

    /** x̂ (a copy). */
    public double[] values() {
        return values.clone();
    }

    double[] valuesView() {
        return values;
    }

    public double noiseVariance() {
        return noiseVariance;
    }

    public Strategy strategy() {
        return strategy;
    }

    public CellCovariance covariance() {
        CellCovariance c = covariance;
        if (c == null) {
            c = strategy.covariance(noiseVariance, domain);
            covariance = c;
        }
        return c;
    }

    /** qᵀx̂ and its standard deviation for a dense query q (length n). */
    public FurtherAnswer answer(double[] q) {
        if (q.length != domain.cells()) {
            throw LinearQueryException.shape("query", "a query needs " + domain.cells() + " entries but had " + q.length);
        }
        for (double v : q) {
            if (!Double.isFinite(v)) {
                throw new LinearQueryException(LinearQueryException.Reason.NOT_FINITE, "query", "the query has a non-finite entry");
            }
        }
        double value = Tensors.dot(q, values);
        double variance = covariance().quadratic(q);
        return new FurtherAnswer(value, Math.sqrt(Math.max(variance, 0)), biasFactor(q));
    }

    /** The sum of x̂ over a box and its standard deviation. */
    public FurtherAnswer answer(Box box) {
        Box.check(domain, box.lo(), box.hi(), "query");
        double[] sat = summedArea;
        if (sat == null) {
            sat = values.clone();
            BoxSums.integrate(sat, domain.sizes());
            summedArea = sat;
        }
        int[] shape = domain.sizes();
        double value = BoxSums.boxSum(sat, shape, BoxSums.strides(shape), box.lo(), box.hi());
        double variance = covariance().boxVariance(box.lo(), box.hi());
        double bias = strategy instanceof LowRankStrategy l && !l.fallback()
                ? biasFactor(Workload.ranges(domain, java.util.List.of(box)).row(0)) : 0;
        return new FurtherAnswer(value, Math.sqrt(Math.max(variance, 0)), bias);
    }

    private double biasFactor(double[] q) {
        if (!(strategy instanceof LowRankStrategy l) || l.fallback()) {
            return 0;
        }
        int n = domain.cells();
        int r = l.rank();
        // (ML − I)ᵀq = Lᵀ(Mᵀq) − q.
        double[] mq = new double[r];
        LinearAlgebraOps.addMultiplyTransA(l.mView(), n, r, q, 1, mq);
        double[] back = new double[n];
        LinearAlgebraOps.addMultiplyTransA(l.lView(), r, n, mq, 1, back);
        double s = 0;
        for (int j = 0; j < n; j++) {
            double d = back[j] - q[j];
            s += d * d;
        }
        return Math.sqrt(s);
    }
}
