package io.privmat.hashing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 and its lower-case hex form (64 digits). Every Java platform must provide SHA-256
 * ({@link MessageDigest}'s contract), so its absence is a broken JDK, reported as an
 * {@link IllegalStateException}, never a checked exception every caller wraps.
 */
public final class Sha256 {

    private static final HexFormat HEX = HexFormat.of();

    private Sha256() {}

    /** A fresh digest, for content hashed in pieces; finish it with {@link #hex(MessageDigest)}. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** Completes the digest (which is reset) and returns its hash in hex. */
    public static String hex(MessageDigest digest) {
        return HEX.formatHex(digest.digest());
    }

    /** The hash of the bytes. */
    public static byte[] bytes(byte[] bytes) {
        return digest().digest(bytes);
    }

    /** The hash of the text's UTF-8 bytes. */
    public static byte[] bytes(String text) {
        return bytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The hash of the bytes, in hex. */
    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes(bytes));
    }

    /** The hash of the text's UTF-8 bytes, in hex. */
    public static String hex(String text) {
        return hex(text.getBytes(StandardCharsets.UTF_8));
    }
}
