package io.privmat.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The Debian package dependency graph from apt's lists (docs/accuracy/cuts.md, "Data"): an undirected edge between a
 * package and the first alternative of each entry of its Depends field, versions and
 * architecture qualifiers dropped, no self-loops, no repeats. Isolated packages cannot appear in an
 * edge list and are left out.
 */
public final class DebianGraph {

    public record Graph(List<String> labels, int[] u, int[] v) {
        public int vertices() {
            return labels.size();
        }

        public int edges() {
            return u.length;
        }
    }

    private DebianGraph() {}

    public static List<Path> lists() throws IOException {
        Path dir = Path.of("/var/lib/apt/lists");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().contains("binary-amd64_Packages")).sorted().toList();
        }
    }

    public static Graph load() throws IOException, InterruptedException {
        Map<String, Integer> ids = new HashMap<>();
        List<String> labels = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        List<int[]> edges = new ArrayList<>();
        for (Path list : lists()) {
            Process p = new ProcessBuilder("/usr/lib/apt/apt-helper", "cat-file", list.toString()).start();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String pkg = null;
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("Package: ")) {
                        pkg = line.substring(9).strip();
                    } else if (line.startsWith("Depends: ") && pkg != null) {
                        for (String entry : line.substring(9).split(",")) {
                            String first = entry.split("\\|")[0].strip();
                            String name = first.split("[ (]")[0].split(":")[0].strip();
                            if (name.isEmpty() || name.equals(pkg)) {
                                continue;
                            }
                            int a = ids.computeIfAbsent(pkg, k -> {
                                labels.add(k);
                                return labels.size() - 1;
                            });
                            int b = ids.computeIfAbsent(name, k -> {
                                labels.add(k);
                                return labels.size() - 1;
                            });
                            long key = (long) Math.min(a, b) << 32 | Math.max(a, b);
                            if (seen.add(key)) {
                                edges.add(new int[] {Math.min(a, b), Math.max(a, b)});
                            }
                        }
                    }
                }
            }
            p.waitFor();
        }
        int[] u = new int[edges.size()];
        int[] v = new int[edges.size()];
        for (int i = 0; i < u.length; i++) {
            u[i] = edges.get(i)[0];
            v[i] = edges.get(i)[1];
        }
        return new Graph(labels, u, v);
    }
}
