package io.privmat.mechanism.window;

/**
 * The private answer after one completed block: the estimate of the window's second-moment sum
 * Σ aaᵀ over blocks [firstBlock, block] (the open block excluded), and the public facts about its
 * noise. Everything here is post-processing of released values.
 *
 * <p>The estimate is Ĉ = C + E with E = Σⱼ aⱼNⱼ a fixed (public) combination of independent
 * symmetric noise matrices Nⱼ = (Gⱼ + Gⱼᵀ)/2: for every fixed x, xᵀEx has mean 0 and variance
 * {@code noiseVariance}·‖x‖⁴ (entries of E: variance {@code noiseVariance} on the diagonal, half
 * of it off the diagonal). Grid rounding moves each entry by at most {@code roundingBound}
 * (a bias, not noise).
 *
 * @param mechanism the mechanism that released it
 * @param block index of the last completed block (0-based)
 * @param firstBlock index of the window's first block, max(0, block − w + 1)
 * @param rows rows (edge events) in the window when public (ROW_COUNT), else −1
 * @param d the dimension
 * @param window the estimate, d×d row-major, exactly symmetric (not PSD in general)
 * @param noiseVariance τ², the variance of xᵀEx for a unit x
 * @param roundingBound the largest movement of one entry by grid rounding
 */
public record WindowRelease(WindowMechanismKind mechanism, long block, long firstBlock, long rows, int d, double[] window,
        double noiseVariance, double roundingBound) {

    /** Blocks in the window. */
    public long blocks() {
        return block - firstBlock + 1;
    }

    /** τ√(2d): the typical spectral norm of the noise E (a symmetric Gaussian matrix with these variances). */
    public double predictedSpectralError() {
        return Math.sqrt(noiseVariance * 2.0 * d);
    }
}
