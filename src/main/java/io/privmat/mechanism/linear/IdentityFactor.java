package io.privmat.mechanism.linear;

/** A_i = I: every value of the attribute measured once. */
record IdentityFactor(int cols) implements Factor {

    @Override
    public int rows() {
        return cols;
    }

    @Override
    public void forward(double[] in, int count, double[] out) {
        System.arraycopy(in, 0, out, 0, count * cols);
    }

    @Override
    public void leastSquares(double[] in, int count, double[] out) {
        System.arraycopy(in, 0, out, 0, count * cols);
    }

    @Override
    public double maxColumnL1() {
        return 1;
    }

    @Override
    public double maxColumnL2() {
        return 1;
    }

    @Override
    public boolean gramNonNegative() {
        return true;
    }

    @Override
    public Covariance1D covariance() {
        return Covariance1D.identity(cols);
    }
}
