package io.privmat.mechanism.linear;

import java.util.Arrays;

/**
 * A product domain of attributes with public sizes. Cells are numbered in row-major order (the first
 * attribute varies slowest): cell(c₀, …, c_{k−1}) = Σᵢ cᵢ·strideᵢ with stride_{k−1} = 1.
 */
public final class Domain {

    private final int[] sizes;
    private final int[] strides;
    private final int cells;

    private Domain(int[] sizes) {
        this.sizes = sizes;
        this.strides = new int[sizes.length];
        int s = 1;
        for (int i = sizes.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= sizes[i];
        }
        this.cells = s;
    }

    /** A domain with these attribute sizes, validated against {@link LinearLimits}. */
    public static Domain of(int... sizes) {
        if (sizes.length == 0) {
            throw new LinearQueryException(LinearQueryException.Reason.EMPTY, "domain.sizes",
                    "a domain needs at least one attribute");
        }
        if (sizes.length > LinearLimits.MAX_ATTRIBUTES) {
            throw LinearQueryException.tooLarge("domain.sizes", "the number of attributes", sizes.length,
                    LinearLimits.MAX_ATTRIBUTES);
        }
        long n = 1;
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 1) {
                throw LinearQueryException.invalid("domain.sizes[" + i + "]",
                        "attribute sizes must be at least 1 but size " + i + " was " + sizes[i]);
            }
            n *= sizes[i];
            if (n > LinearLimits.MAX_CELLS) {
                throw LinearQueryException.tooLarge("domain.sizes", "the number of cells (product of sizes)", n,
                        LinearLimits.MAX_CELLS);
            }
        }
        return new Domain(sizes.clone());
    }

    public int attributes() {
        return sizes.length;
    }

    public int size(int attribute) {
        return sizes[attribute];
    }

    public int[] sizes() {
        return sizes.clone();
    }

    /** Row-major stride of an attribute. */
    public int stride(int attribute) {
        return strides[attribute];
    }

    /** n = Π sizes. */
    public int cells() {
        return cells;
    }

    /** The cell index of a coordinate vector. */
    public int cell(int... coordinates) {
        int c = 0;
        for (int i = 0; i < sizes.length; i++) {
            c += coordinates[i] * strides[i];
        }
        return c;
    }

    /** Canonical text, e.g. {@code [8,8,8,8]}. */
    String canonical() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < sizes.length; i++) {
            b.append(i == 0 ? "" : ",").append(sizes[i]);
        }
        return b.append(']').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Domain d && Arrays.equals(sizes, d.sizes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sizes);
    }

    @Override
    public String toString() {
        return "Domain" + canonical();
    }
}
