package io.privmat.dataset.ingest;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The stages of an upload run one at a time on a file, for the upload benchmark's time split
 * (docs/benchmarks.md): each method returns a checksum so that nothing is optimised away.
 */
public final class IngestStages {

    private IngestStages() {}

    /** Reference: the file's bytes read through a 64 KiB buffer. */
    public static long readBytes(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            long sum = 0;
            for (int n; (n = in.read(buffer)) > 0;) {
                sum += n + buffer[0];
            }
            return sum;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reference: every field of a CSV (header skipped) as a String through {@link Double#parseDouble}. */
    public static long jdkParse(Path csv) {
        try (InputStream in = Files.newInputStream(csv)) {
            byte[] buffer = new byte[1 << 16];
            byte[] field = new byte[64];
            int len = 0;
            boolean header = true;
            double sum = 0;
            for (int n; (n = in.read(buffer)) > 0;) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == ',' || b == '\n') {
                        if (!header) {
                            sum += Double.parseDouble(new String(field, 0, len, StandardCharsets.US_ASCII));
                        }
                        len = 0;
                        header &= b != '\n';
                    } else {
                        field[len++] = b;
                    }
                }
            }
            return Double.doubleToLongBits(sum);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tokenising and parsing only (the upload's parser into a sink that sums). */
    public static long parse(Path file, boolean npy) {
        return run(file, npy, cols -> new Summing()).checksum();
    }

    /** Parsing, clipping to norm 1 and chunk encoding on the upload's two threads, without the database. */
    public static long parseClipEncode(Path file, boolean npy) {
        try (ChunkPipeline pipeline = ChunkPipeline.threaded()) {
            return run(file, npy, cols -> new MatrixWriter((no, first, rows, encoding, nnz, payload) -> {}, pipeline,
                    cols, 1.0, 4L << 20)).finish("CSV", 0).nnz();
        }
    }

    private static <W extends RowSink> W run(Path file, boolean npy, java.util.function.IntFunction<W> sinks) {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            return npy ? NpyParser.parse(in, 100_000, sinks) : DelimitedMatrixParser.parse(in, (byte) ',', null, 100_000, sinks);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Summing implements RowSink {
        double sum;

        @Override
        public void denseRow(double[] row) {
            for (double v : row) {
                sum += v;
            }
        }

        long checksum() {
            return Double.doubleToLongBits(sum);
        }
    }
}
