package io.privmat.api;

import io.privmat.problem.PrivmatException;
/**
 * Checks for client-supplied names and keys. Control characters (a NUL cannot even be stored in
 * PostgreSQL text) and lone UTF-16 surrogates (not encodable in UTF-8; they would be stored as
 * {@code ?} and no longer match what was sent) are refused with a 400 instead of failing in the
 * database or being silently altered.
 */
public final class TextChecks {

    private TextChecks() {}

    /**
     * {@code value}, stripped, with 1..{@code max} characters, no control characters and well-formed
     * UTF-16; otherwise a 400 naming {@code parameter}.
     */
    public static String name(String parameter, String value, int max) {
        String v = value == null ? "" : value.strip();
        if (v.isEmpty() || v.length() > max) {
            throw PrivmatException.invalidParameter(parameter, "1–" + max + " characters",
                    parameter + " must have 1–" + max + " characters but had " + v.length());
        }
        int bad = firstInvalid(v, false);
        if (bad >= 0) {
            throw PrivmatException.invalidParameter(parameter, "no control characters, well-formed Unicode",
                    parameter + " has a control character or an unpaired surrogate at index " + bad);
        }
        return v;
    }

    /**
     * Index of the first control character or unpaired surrogate (or, with {@code asciiOnly}, any
     * character outside printable ASCII 0x20–0x7E), or -1.
     */
    public static int firstInvalid(String s, boolean asciiOnly) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (asciiOnly) {
                if (c < 0x20 || c > 0x7E) {
                    return i;
                }
            } else if (Character.isISOControl(c)) {
                return i;
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return i;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }
}
