package io.privmat.mechanism.catalog;

import java.util.List;

/**
 * A histogram's public domain: its attributes' names and sizes. The cells are the product of the
 * sizes in row-major order (the first attribute varies slowest).
 */
public record HistogramDomain(List<String> names, List<Integer> sizes) {

    public HistogramDomain {
        names = List.copyOf(names);
        sizes = List.copyOf(sizes);
        if (names.isEmpty() || names.size() != sizes.size()) {
            throw new IllegalArgumentException("one size per attribute name");
        }
        long cells = 1;
        for (int s : sizes) {
            if (s < 1) {
                throw new IllegalArgumentException("sizes must be ≥ 1");
            }
            cells *= s;
            if (cells > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("too many cells");
            }
        }
    }

    /** The number of cells. */
    public int cells() {
        long n = 1;
        for (int s : sizes) {
            n *= s;
        }
        return (int) n;
    }

    /** The sizes as an array. */
    public int[] sizeArray() {
        return sizes.stream().mapToInt(Integer::intValue).toArray();
    }
}
