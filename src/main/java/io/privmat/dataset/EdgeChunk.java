package io.privmat.dataset;

/** A block of graph edges as stored: {@code u[i] < v[i]} dense vertex ids, weights in [0, 1]. */
public record EdgeChunk(long firstEdge, int count, int[] u, int[] v, double[] weight) {}
