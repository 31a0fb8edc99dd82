package io.privmat.dataset;

import io.privmat.dataset.ingest.DecimalToDouble;

/**
 * Decimal text to double as uploads read it, for other capabilities (the EXTERNAL CSV reader): exact
 * for short decimals, Eisel–Lemire up to 19 digits, {@link Double#parseDouble} past that.
 */
public final class Decimals {

    private Decimals() {}

    /**
     * The finite double, correctly rounded, that bytes [start, end) denote as a plain decimal
     * ({@code [sign]digits[.digits][e[sign]digits]}, nothing around it); NaN for anything else, a
     * non-finite value included. Never throws because of the bytes.
     */
    public static double parse(byte[] bytes, int start, int end) {
        return DecimalToDouble.parseDecimal(bytes, start, end);
    }
}
