package io.privmat.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/** Hostile upload bodies for each media type (and any other): shapes, numbers, control characters, sizes. */
final class Uploads {

    private Uploads() {}

    static final List<String> TOKENS = List.of("1e308", "-1e308", "1e309", "4.9e-324", "1e-400", "1e999999999",
            "NaN", "nan", "Infinity", "-inf", "0x1p3", "1_000", "١", "+-1", "--1", "1e", ".", "-", "",
            "\u0000", "\u001b", "\u202e", "9".repeat(400), "0." + "0".repeat(400) + "1", "\"1\"", "1,5");

    static byte[] hostile(String type, Random random) {
        if (random.nextInt(8) == 0) {
            return malformedUtf8(random); // issue 36: never decoded with replacement
        }
        return switch (type) {
            case "application/x-npy" -> npy(random);
            case "application/x-matrix-market", "text/x-matrix-market" -> matrixMarket(random);
            default -> delimited(type.equals("text/tab-separated-values") ? "\t" : ",", random);
        };
    }

    /** Text with a malformed UTF-8 sequence: a lone 0xFF, an overlong '/', a surrogate, a truncated sequence. */
    private static byte[] malformedUtf8(Random random) {
        byte[][] bad = {{(byte) 0xff}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xe2, (byte) 0x82}, {(byte) 0xfe, 'a'}};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("a,b\n0.1,".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(bad[random.nextInt(bad.length)]);
        out.writeBytes("\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static String token(Random random) {
        return TOKENS.get(random.nextInt(TOKENS.size()));
    }

    private static byte[] delimited(String sep, Random random) {
        StringBuilder b = new StringBuilder();
        switch (random.nextInt(8)) {
            case 0 -> b.append("a").append(sep).append("b\n").append("1").append(sep).append(token(random)).append('\n');
            case 1 -> b.append("1").append(sep.repeat(100_001)).append("1\n"); // too many columns
            case 2 -> b.append("1").append(sep).append("2\n").append("3\n"); // ragged
            case 3 -> b.append("x".repeat(2_000_000)).append('\n'); // one huge field
            case 4 -> b.append("\n\n\n");
            case 5 -> b.append("1").append(sep).append("2\r\n\u0000\u0001").append(sep).append("\u00ff\n");
            case 6 -> {
                for (int i = 0; i < 50; i++) {
                    b.append(token(random)).append(sep).append(token(random)).append('\n');
                }
            }
            default -> b.append("0.1").append(sep).append("0.2\n0.3").append(sep).append(token(random)).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] matrixMarket(Random random) {
        List<String> sizes = List.of("-1 -1 -1", "0 0 0", "2147483647 1 1", "2147483648 1 1", "1 2147483648 1",
                "99999999999999999999 1 1", "200000000 1 1", "3 3 -1", "3 3 9223372036854775807", "1e3 1 1",
                "3 3", "3 3 1 1", "65536 100000 1", "1 100001 1", "1024 4096 1", "2048 2048 1");
        String banner = List.of("%%MatrixMarket matrix coordinate real general", "%%MatrixMarket matrix array real general",
                "%%MatrixMarket matrix coordinate pattern symmetric", "%%MatrixMarket matrix coordinate complex general",
                "%%matrixmarket MATRIX Coordinate REAL General", "%%MatrixMarket tensor coordinate real general",
                "%%MatrixMarket matrix coordinate real skew-symmetric").get(random.nextInt(7));
        StringBuilder b = new StringBuilder(banner).append('\n');
        if (random.nextBoolean()) {
            b.append("% ").append("comment\u0000".repeat(random.nextInt(3))).append('\n');
        }
        b.append(sizes.get(random.nextInt(sizes.size()))).append('\n');
        int entries = random.nextInt(4);
        for (int i = 0; i < entries; i++) {
            b.append(random.nextBoolean() ? "1" : token(random)).append(' ').append(random.nextBoolean() ? "1" : "-1")
                    .append(' ').append(token(random)).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] npy(Random random) {
        List<String> shapes = List.of("(3, -5)", "(-1,)", "(2147483648, 2)", "(100000, 100000)", "(0, 3)", "()",
                "(1, 2, 3)", "(2, 2)", "(9223372036854775807,)", "(2,", "'a'");
        List<String> descrs = List.of("'<f8'", "'<f4'", "'<i8'", "'<c16'", "'|O'", "'>f8'", "'<U3'", "'<f2'", "42");
        String header = "{'descr': " + descrs.get(random.nextInt(descrs.size())) + ", 'fortran_order': "
                + (random.nextInt(4) == 0 ? "True" : "False") + ", 'shape': " + shapes.get(random.nextInt(shapes.size()))
                + ", }";
        int total = 10 + header.length() + 1;
        header = header + " ".repeat((64 - total % 64) % 64) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) (random.nextInt(5) == 0 ? 9 : 1))
                .put((byte) 0).putShort((short) (random.nextInt(6) == 0 ? 65535 : header.length()));
        out.writeBytes(b.array());
        out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
        ByteBuffer data = ByteBuffer.allocate(8 * 4).order(ByteOrder.LITTLE_ENDIAN);
        double[] values = {Double.NaN, Double.POSITIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE};
        for (int i = 0; i < 4; i++) {
            data.putDouble(values[random.nextInt(values.length)]);
        }
        out.write(data.array(), 0, random.nextInt(33));
        return out.toByteArray();
    }
}
