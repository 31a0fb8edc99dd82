package io.privmat.dataset;

/**
 * A batch of weighted edge events read into memory (not stored): event i joins vertices u[i] and
 * v[i] (dense ids of the declared universe) with weight w[i] ∈ [0, 1].
 */
public record ParsedEdges(int[] u, int[] v, double[] w, String format, long bytes) {

    public int count() {
        return u.length;
    }
}
