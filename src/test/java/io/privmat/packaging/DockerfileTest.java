package io.privmat.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A static check of the Dockerfile (no Docker engine here): stages, user, health check, layers,
 * and that the runtime stage carries no build tools or sources.
 */
class DockerfileTest {

    private record Stage(String from, List<String> instructions) {}

    private static List<Stage> stages() throws IOException {
        return stages("Dockerfile");
    }

    private static List<Stage> stages(String file) throws IOException {
        List<Stage> stages = new ArrayList<>();
        StringBuilder logical = new StringBuilder();
        for (String raw : Files.readAllLines(Path.of(file))) {
            String line = raw.strip();
            if (line.startsWith("#") || line.isEmpty()) {
                continue;
            }
            if (line.endsWith("\\")) {
                logical.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            logical.append(line);
            String instruction = logical.toString();
            logical.setLength(0);
            if (instruction.toUpperCase().startsWith("FROM ")) {
                stages.add(new Stage(instruction, new ArrayList<>()));
            } else {
                stages.get(stages.size() - 1).instructions().add(instruction);
            }
        }
        return stages;
    }

    @Test
    void multiStageBuildWithASlimNonRootRuntime() throws IOException {
        List<Stage> stages = stages();
        assertThat(stages).hasSize(2);
        assertThat(stages.get(0).from()).contains("jdk").contains(" AS build");
        Stage runtime = stages.get(1);
        assertThat(runtime.from()).contains("17-jre");
        List<String> ins = runtime.instructions();
        assertThat(ins).anyMatch(i -> i.startsWith("USER 10001"));
        assertThat(ins).anyMatch(i -> i.startsWith("HEALTHCHECK") && i.contains("/actuator/health/liveness"));
        assertThat(ins).anyMatch(i -> i.contains("libopenblas0"));
        assertThat(ins).anyMatch(i -> i.contains("useradd"));
        assertThat(ins).anyMatch(i -> i.contains("MaxRAMPercentage"));
        assertThat(ins).anyMatch(i -> i.startsWith("ENTRYPOINT") && i.contains("JarLauncher"));
        // Only the extracted Spring Boot layers reach the runtime: no sources, wrapper or Maven.
        List<String> copies = ins.stream().filter(i -> i.startsWith("COPY")).toList();
        assertThat(copies).hasSize(4).allMatch(c -> c.contains("--from=build /extracted/"));
        assertThat(String.join("\n", ins)).doesNotContain("mvnw").doesNotContain("src/");
        int user = indexOf(ins, "USER");
        assertThat(indexOf(ins, "ENTRYPOINT")).isGreaterThan(user);
    }

    @Test
    void buildStageCachesDependenciesBeforeSources() throws IOException {
        List<String> build = stages().get(0).instructions();
        int goOffline = indexOf(build, "RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q dependency:go-offline");
        int sources = indexOf(build, "COPY src/main");
        assertThat(goOffline).isNotNegative().isLessThan(sources);
        assertThat(build).anyMatch(i -> i.contains("-Djarmode=tools") && i.contains("--layers"));
        assertThat(Files.readString(Path.of(".dockerignore"))).contains("target/");
    }

    @Test
    void theSparkImageBuildsWithTheProfileAndCarriesSparkForWorkersToo() throws IOException {
        List<Stage> stages = stages("Dockerfile.spark");
        assertThat(stages).hasSize(2);
        List<String> build = stages.get(0).instructions();
        assertThat(indexOf(build, "RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -Pspark dependency:go-offline"))
                .isNotNegative().isLessThan(indexOf(build, "COPY src/main"));
        assertThat(build).contains("COPY src/spark/main src/spark/main")
                .anyMatch(i -> i.contains("-Pspark -DskipTests package") && i.contains("--layers"));
        List<String> runtime = stages.get(1).instructions();
        assertThat(stages.get(1).from()).contains("17-jre");
        assertThat(runtime).anyMatch(i -> i.startsWith("USER 10001"))
                .anyMatch(i -> i.contains("ln -s /app/BOOT-INF/lib /opt/spark/jars"))
                .anyMatch(i -> i.startsWith("ENV") && i.contains("SPARK_HOME=/opt/spark")
                        && i.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"))
                .anyMatch(i -> i.startsWith("ENTRYPOINT") && i.contains("JarLauncher"));
        // The four Spring Boot layers, and the Servlet 5 API the standalone daemons' web UIs need.
        assertThat(runtime.stream().filter(i -> i.startsWith("COPY")).toList()).hasSize(5)
                .filteredOn(c -> !c.contains("spark-daemon-lib")).hasSize(4)
                .allMatch(c -> c.contains("--from=build /extracted/"));
        assertThat(runtime).contains("COPY --from=build /src/target/spark-daemon-lib/ /app/spark-daemon-lib/");
        // The default image stays Spark-free.
        assertThat(String.join("\n", stages().get(0).instructions())).doesNotContain("-Pspark");
    }

    private static int indexOf(List<String> instructions, String prefix) {
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
