package io.privmat.mechanism.linear;

import java.util.Arrays;

/**
 * A counting query over a box of the domain: per attribute an inclusive interval [lo, hi]. Its
 * answer is the sum of the cells inside.
 */
public record Box(int[] lo, int[] hi) {

    public Box {
        lo = lo.clone();
        hi = hi.clone();
    }

    /** A validated box for this domain. */
    public static Box of(Domain domain, int[] lo, int[] hi) {
        check(domain, lo, hi, "box");
        return new Box(lo, hi);
    }

    static void check(Domain domain, int[] lo, int[] hi, String field) {
        int k = domain.attributes();
        if (lo.length != k || hi.length != k) {
            throw LinearQueryException.shape(field, "a box needs one interval per attribute (" + k + ") but had "
                    + lo.length + " and " + hi.length + " bounds");
        }
        for (int i = 0; i < k; i++) {
            if (lo[i] < 0 || hi[i] >= domain.size(i) || lo[i] > hi[i]) {
                throw LinearQueryException.invalid(field + "[" + i + "]", "interval [" + lo[i] + ", " + hi[i]
                        + "] is not inside [0, " + (domain.size(i) - 1) + "] with lo <= hi");
            }
        }
    }

    /** Number of cells in the box. */
    public long volume() {
        long v = 1;
        for (int i = 0; i < lo.length; i++) {
            v *= hi[i] - lo[i] + 1;
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Box b && Arrays.equals(lo, b.lo) && Arrays.equals(hi, b.hi);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(lo) + Arrays.hashCode(hi);
    }

    @Override
    public String toString() {
        return "Box" + Arrays.toString(lo) + ".." + Arrays.toString(hi);
    }
}
