package io.privmat.support;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** NumPy .npy files built in tests. */
public final class Npy {

    private Npy() {}

    /** A version-1 .npy file with the given dtype descriptor (e.g. {@code <f8}), shape text and values. */
    public static byte[] bytes(String descr, String shape, boolean fortran, ByteOrder order, int itemSize, double... values) {
        String header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False")
                + ", 'shape': " + shape + ", }";
        int total = 10 + header.length() + 1;
        int pad = (64 - total % 64) % 64;
        header = header + " ".repeat(pad) + "\n";
        ByteBuffer b = ByteBuffer.allocate(10 + header.length() + values.length * itemSize);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.order(ByteOrder.LITTLE_ENDIAN).putShort((short) header.length());
        b.put(header.getBytes(StandardCharsets.US_ASCII));
        b.order(order);
        for (double v : values) {
            switch (descr.substring(1)) {
                case "f8" -> b.putDouble(v);
                case "f4" -> b.putFloat((float) v);
                case "i4" -> b.putInt((int) v);
                case "u1" -> b.put((byte) v);
                case "i8" -> b.putLong((long) v);
                default -> throw new IllegalArgumentException(descr);
            }
        }
        return b.array();
    }
}
