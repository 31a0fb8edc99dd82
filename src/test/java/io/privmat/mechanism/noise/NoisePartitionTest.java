package io.privmat.mechanism.noise;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The partition of bulk noise into split streams is fixed by public parameters, not by the CPU
 * count (issue 15, item 5): the same seed gives the same noise, and randomized response's second
 * pass replays exactly the first pass's noise, on 1, 3 or however many CPUs.
 */
class NoisePartitionTest {

    @Test
    void stripesDependOnTheLengthOnly() {
        assertThat(GridNoise.stripes(1)).isEqualTo(1);
        assertThat(GridNoise.stripes(8191)).isEqualTo(1);
        assertThat(GridNoise.stripes(40_000)).isEqualTo(9);
        assertThat(GridNoise.stripes(668L * 784)).isEqualTo(GridNoise.MAX_STRIPES);
    }

    @Test
    void noiseAndRandomizedResponseAreTheSameWhateverTheCpuCount() throws Exception {
        String here = NoisePartitionProbe.digests();
        String one = probe(1);
        String three = probe(3);
        assertThat(one).startsWith("cpus 1\n");
        assertThat(three).startsWith("cpus 3\n");
        assertThat(one.substring(one.indexOf('\n') + 1).strip()).isEqualTo(here.strip());
        assertThat(three.substring(three.indexOf('\n') + 1).strip()).isEqualTo(here.strip());
    }

    private static String probe(int cpus) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-XX:ActiveProcessorCount=" + cpus, "-cp",
                System.getProperty("java.class.path"), NoisePartitionProbe.class.getName())
                .redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        // Keep the probe's lines only (netlib prints its choice of implementation).
        return text.lines().filter(l -> l.startsWith("cpus ") || l.startsWith("fill ") || l.startsWith("symmetric ")
                || l.startsWith("rr ")).reduce("", (a, b) -> a + b + "\n");
    }
}
