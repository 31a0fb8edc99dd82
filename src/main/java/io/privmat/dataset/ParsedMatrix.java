package io.privmat.dataset;

/**
 * A small matrix read from an upload into memory (not a dataset): rows × cols values, row-major.
 * For public inputs such as query workloads.
 */
public record ParsedMatrix(int rows, int cols, double[] values, String format, long bytes) {}
