package io.privmat.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;

/** NumPy's .npy format 1.0 for float64 arrays in C order (what results and exports are served as). */
public final class Npy {

    public static final String MEDIA_TYPE = "application/x-npy";

    private Npy() {}

    /** Magic, version, and the header dict padded to a multiple of 64 bytes; the data follows. */
    public static byte[] header(int[] shape) {
        String dims = Arrays.stream(shape).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        if (shape.length == 1) {
            dims += ",";
        }
        String header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + dims + "), }";
        int unpadded = 10 + header.length() + 1;
        header = header + " ".repeat((64 - unpadded % 64) % 64) + "\n";
        ByteBuffer out = ByteBuffer.allocate(10 + header.length()).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        out.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
        return out.array();
    }

    /** A whole .npy file: the header and the little-endian float64 data. */
    public static byte[] of(int[] shape, byte[] data) {
        byte[] head = header(shape);
        byte[] out = Arrays.copyOf(head, head.length + data.length);
        System.arraycopy(data, 0, out, head.length, data.length);
        return out;
    }
}
