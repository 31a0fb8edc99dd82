package io.privmat.mechanism.linear;

/** Applying a one-attribute linear map along one mode of a row-major tensor (Kronecker products). */
final class Tensors {

    /** A linear map applied to {@code count} fibres stored as the rows of {@code in}. */
    @FunctionalInterface
    interface BatchOp {
        void apply(double[] in, int count, double[] out);
    }

    private Tensors() {}

    /**
     * Applies {@code op} (size → outSize) along {@code mode} of a tensor of {@code shape}; returns the
     * tensor with shape[mode] replaced by outSize.
     */
    static double[] applyMode(double[] in, int[] shape, int mode, int outSize, BatchOp op) {
        long pre = 1;
        for (int i = 0; i < mode; i++) {
            pre *= shape[i];
        }
        int size = shape[mode];
        long postL = 1;
        for (int i = mode + 1; i < shape.length; i++) {
            postL *= shape[i];
        }
        long total = pre * outSize * postL;
        if (total > Integer.MAX_VALUE - 16) {
            throw LinearQueryException.tooLarge("strategy", "an intermediate tensor's size", total,
                    Integer.MAX_VALUE - 16);
        }
        int post = (int) postL;
        double[] out = new double[(int) total];
        if (post == 1) {
            op.apply(in, (int) pre, out);
            return out;
        }
        double[] buf = new double[post * size];
        double[] obuf = new double[post * outSize];
        for (long a = 0; a < pre; a++) {
            int inBase = (int) (a * size * post);
            for (int i = 0; i < size; i++) {
                int row = inBase + i * post;
                for (int b = 0; b < post; b++) {
                    buf[b * size + i] = in[row + b];
                }
            }
            op.apply(buf, post, obuf);
            int outBase = (int) (a * outSize * post);
            for (int i = 0; i < outSize; i++) {
                int row = outBase + i * post;
                for (int b = 0; b < post; b++) {
                    out[row + b] = obuf[b * outSize + i];
                }
            }
        }
        return out;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
