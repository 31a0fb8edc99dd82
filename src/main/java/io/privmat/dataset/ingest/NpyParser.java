package io.privmat.dataset.ingest;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NumPy {@code .npy} (format versions 1–3): C-order 1-D or 2-D arrays of float64, float32 or
 * integers (signed or unsigned, 1–8 bytes, either byte order). A 1-D array of length n is read as
 * an n×1 matrix. Fortran order, object arrays and other dtypes are refused.
 */
final class NpyParser {

    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([<>|=])([fiu])(\\d+)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private NpyParser() {}

    static <W extends RowSink> W parse(InputStream raw, int maxColumns, IntFunction<W> writers) {
        DataInputStream in = new DataInputStream(raw);
        long offset = 0;
        try {
            byte[] magic = new byte[8];
            int n = in.readNBytes(magic, 0, 8);
            if (n == 0) {
                throw InvalidDataException.whole("the upload is empty");
            }
            if (n < 8 || (magic[0] & 0xff) != 0x93 || !"NUMPY".equals(new String(magic, 1, 5, StandardCharsets.US_ASCII))) {
                throw InvalidDataException.atByte(0, "not an .npy file (bad magic string)");
            }
            int major = magic[6];
            int headerLength;
            if (major == 1) {
                headerLength = Short.toUnsignedInt(Short.reverseBytes(in.readShort()));
                offset = 10;
            } else if (major == 2 || major == 3) {
                headerLength = Integer.reverseBytes(in.readInt());
                offset = 12;
            } else {
                throw InvalidDataException.atByte(6, "unsupported .npy format version " + major);
            }
            if (headerLength < 0 || headerLength > 1 << 20) {
                throw InvalidDataException.atByte(8, "implausible .npy header length");
            }
            byte[] headerBytes = in.readNBytes(headerLength);
            if (headerBytes.length < headerLength) {
                throw InvalidDataException.atByte(offset + headerBytes.length, "truncated .npy header");
            }
            String header = new String(headerBytes, StandardCharsets.ISO_8859_1);
            Matcher descr = DESCR.matcher(header);
            Matcher fortran = FORTRAN.matcher(header);
            Matcher shape = SHAPE.matcher(header);
            if (!descr.find() || !fortran.find() || !shape.find()) {
                throw InvalidDataException.atByte(offset, "malformed .npy header (need descr, fortran_order, shape)");
            }
            if ("True".equals(fortran.group(1))) {
                throw InvalidDataException.atByte(offset,
                        "Fortran-order arrays are not accepted; save with numpy.ascontiguousarray");
            }
            Dtype dtype = Dtype.of(descr.group(1), descr.group(2), Integer.parseInt(descr.group(3)), offset);
            long[] dims = parseShape(shape.group(1), offset);
            offset += headerLength;
            long rows = dims[0];
            long colsLong = dims.length == 2 ? dims[1] : 1;
            if (rows == 0 || colsLong == 0) {
                throw InvalidDataException.atByte(offset, "the array is empty (shape has a zero)");
            }
            if (colsLong > maxColumns) {
                throw InvalidDataException.atByte(offset,
                        "the array has " + colsLong + " columns; at most " + maxColumns + " are accepted");
            }
            int cols = (int) colsLong;
            W writer = writers.apply(cols);
            byte[] rowBytes = new byte[cols * dtype.size];
            ByteBuffer buffer = ByteBuffer.wrap(rowBytes).order(dtype.order);
            double[] row = new double[cols];
            for (long r = 0; r < rows; r++) {
                int got = in.readNBytes(rowBytes, 0, rowBytes.length);
                if (got < rowBytes.length) {
                    throw InvalidDataException.atByte(offset + got,
                            "truncated data: the header promises " + rows + "×" + cols + " values");
                }
                buffer.clear();
                for (int c = 0; c < cols; c++) {
                    double v = dtype.read(buffer);
                    if (!Double.isFinite(v)) {
                        throw InvalidDataException.atByte(offset + (long) c * dtype.size,
                                "NaN and infinite values are not allowed");
                    }
                    row[c] = v;
                }
                writer.denseRow(row);
                offset += rowBytes.length;
            }
            if (in.read() >= 0) {
                throw InvalidDataException.atByte(offset, "trailing bytes after the array data");
            }
            return writer;
        } catch (EOFException e) {
            throw InvalidDataException.atByte(offset, "truncated .npy file");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long[] parseShape(String text, long offset) {
        String[] parts = text.split(",");
        long[] dims = new long[2];
        int n = 0;
        for (String part : parts) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            if (n == 2) {
                throw InvalidDataException.atByte(offset, "only 1-D and 2-D arrays are accepted");
            }
            try {
                dims[n++] = Long.parseLong(p.endsWith("L") ? p.substring(0, p.length() - 1) : p);
            } catch (NumberFormatException e) {
                throw InvalidDataException.atByte(offset, "malformed shape in the .npy header");
            }
            if (dims[n - 1] < 0) {
                throw InvalidDataException.atByte(offset, "negative dimension in the .npy shape");
            }
        }
        if (n == 0) {
            throw InvalidDataException.atByte(offset, "0-D arrays (scalars) are not accepted");
        }
        return n == 1 ? new long[] {dims[0]} : dims;
    }

    private record Dtype(char kind, int size, ByteOrder order) {

        static Dtype of(String endian, String kind, int size, long offset) {
            ByteOrder order = ">".equals(endian) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            char k = kind.charAt(0);
            boolean ok = switch (k) {
                case 'f' -> size == 4 || size == 8;
                case 'i', 'u' -> size == 1 || size == 2 || size == 4 || size == 8;
                default -> false;
            };
            if (!ok) {
                throw InvalidDataException.atByte(offset, "unsupported dtype; use float64, float32 or an integer type");
            }
            return new Dtype(k, size, order);
        }

        double read(ByteBuffer b) {
            if (kind == 'f') {
                return size == 8 ? b.getDouble() : b.getFloat();
            }
            boolean unsigned = kind == 'u';
            return switch (size) {
                case 1 -> unsigned ? Byte.toUnsignedInt(b.get()) : b.get();
                case 2 -> unsigned ? Short.toUnsignedInt(b.getShort()) : b.getShort();
                case 4 -> unsigned ? Integer.toUnsignedLong(b.getInt()) : b.getInt();
                default -> unsigned ? unsignedLong(b.getLong()) : (double) b.getLong();
            };
        }

        private static double unsignedLong(long v) {
            return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
        }
    }
}
