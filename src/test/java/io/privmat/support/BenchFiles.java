package io.privmat.support;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Input files of benchmark harnesses, written once under target/bench/ and reused by later runs. */
public final class BenchFiles {

    private BenchFiles() {}

    /** Writes the body of an ASCII file. */
    @FunctionalInterface
    public interface Body {
        void write(BufferedWriter out) throws IOException;
    }

    /** target/bench/{@code name}, written by {@code body} unless it already exists. */
    public static Path once(String name, Body body) throws IOException {
        Path path = Path.of("target/bench/" + name);
        if (Files.exists(path)) {
            return path;
        }
        Files.createDirectories(path.getParent());
        try (BufferedWriter out = Files.newBufferedWriter(path, StandardCharsets.US_ASCII)) {
            body.write(out);
        }
        return path;
    }
}
