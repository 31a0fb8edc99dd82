package io.privmat.mechanism.linear;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Kronecker product A = ⊗A_i of one factor per attribute (identity, hierarchical tree, dense
 * optimised), or a single factor over the flattened domain. (⊗A_i)⁺ = ⊗A_i⁺ and
 * (AᵀA)⁻¹ = ⊗(A_iᵀA_i)⁻¹, so measuring, estimating and the covariance work factor by factor.
 */
public final class ProductStrategy implements Strategy {

    private final String kind;
    private final int[] shape;
    private final List<Factor> factors;
    private final StrategyInfo info;

    ProductStrategy(String kind, List<Factor> factors, StrategyInfo info) {
        this.kind = kind;
        this.factors = List.copyOf(factors);
        this.shape = new int[factors.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = factors.get(i).cols();
        }
        this.info = info;
    }

    List<Factor> factors() {
        return factors;
    }

    int[] shape() {
        return shape.clone();
    }

    /** A copy with other metadata. */
    ProductStrategy withInfo(StrategyInfo newInfo) {
        return new ProductStrategy(kind, factors, newInfo);
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public int cells() {
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        return n;
    }

    @Override
    public long rows() {
        long p = 1;
        for (Factor f : factors) {
            p *= f.rows();
        }
        return p;
    }

    @Override
    public double maxColumnL1() {
        double v = 1;
        for (Factor f : factors) {
            v *= f.maxColumnL1();
        }
        return v;
    }

    @Override
    public double maxColumnL2() {
        double v = 1;
        for (Factor f : factors) {
            v *= f.maxColumnL2();
        }
        return v;
    }

    @Override
    public boolean gramNonNegative() {
        for (Factor f : factors) {
            if (!f.gramNonNegative()) {
                return false;
            }
        }
        return true;
    }

    boolean allIdentity() {
        return factors.stream().allMatch(f -> f instanceof IdentityFactor);
    }

    @Override
    public double[] measure(double[] x) {
        if (x.length != cells()) {
            throw LinearQueryException.shape("x", "expected " + cells() + " cells but got " + x.length);
        }
        if (allIdentity()) {
            return x.clone();
        }
        int[] current = shape.clone();
        double[] v = x;
        for (int i = 0; i < factors.size(); i++) {
            Factor f = factors.get(i);
            v = Tensors.applyMode(v, current, i, f.rows(), f::forward);
            current[i] = f.rows();
        }
        return v;
    }

    @Override
    public double[] estimate(double[] y) {
        if (y.length != rows()) {
            throw LinearQueryException.shape("y", "expected " + rows() + " measurements but got " + y.length);
        }
        if (allIdentity()) {
            return y.clone();
        }
        int[] current = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            current[i] = factors.get(i).rows();
        }
        double[] v = y;
        for (int i = 0; i < factors.size(); i++) {
            Factor f = factors.get(i);
            v = Tensors.applyMode(v, current, i, f.cols(), f::leastSquares);
            current[i] = f.cols();
        }
        return v;
    }

    /** Whether the factors are one per attribute of this domain (else the strategy is flattened). */
    boolean alignedWith(Domain domain) {
        return Arrays.equals(shape, domain.sizes());
    }

    @Override
    public CellCovariance covariance(double noiseVariance, Domain domain) {
        if (alignedWith(domain)) {
            List<Covariance1D> k = new ArrayList<>();
            for (Factor f : factors) {
                k.add(f.covariance());
            }
            return new CellCovariance.Product(noiseVariance, k);
        }
        if (factors.size() != 1 || shape[0] != domain.cells()) {
            throw LinearQueryException.shape("strategy", "the strategy's shape " + Arrays.toString(shape)
                    + " does not fit the domain " + domain.canonical());
        }
        if (domain.cells() > LinearLimits.MAX_DENSE_CELLS) {
            throw LinearQueryException.tooLarge("strategy", "a flattened strategy's covariance needs n", domain.cells(),
                    LinearLimits.MAX_DENSE_CELLS);
        }
        return new CellCovariance.Dense(noiseVariance, factors.get(0).covariance().dense(), domain);
    }

    @Override
    public StrategyInfo info() {
        return info;
    }

    @Override
    public String toString() {
        return kind + " strategy " + Arrays.toString(shape) + " → " + rows() + " rows";
    }
}
