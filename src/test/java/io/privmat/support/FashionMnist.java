package io.privmat.support;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Reads Fashion-MNIST from the Debian package {@code dataset-fashion-mnist} (IDX, gzip,
 * big-endian header then unsigned bytes).
 */
public final class FashionMnist {

    public static final Path TRAIN_IMAGES = Path.of("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");

    private FashionMnist() {}

    public static boolean available() {
        return Files.isReadable(TRAIN_IMAGES);
    }

    /** Streams the training images as rows of 784 unsigned bytes (0–255). */
    public static void forEachImage(int limit, ImageConsumer consumer) throws IOException {
        try (InputStream raw = Files.newInputStream(TRAIN_IMAGES);
                DataInputStream in = new DataInputStream(new BufferedInputStream(new GZIPInputStream(raw, 1 << 16)))) {
            int magic = in.readInt();
            if (magic != 0x00000803) {
                throw new IOException("not an IDX3 ubyte file");
            }
            int count = in.readInt();
            int rows = in.readInt();
            int cols = in.readInt();
            byte[] pixels = new byte[rows * cols];
            for (int i = 0; i < Math.min(count, limit); i++) {
                in.readFully(pixels);
                consumer.accept(i, pixels);
            }
        }
    }

    @FunctionalInterface
    public interface ImageConsumer {
        void accept(int index, byte[] pixels) throws IOException;
    }
}
