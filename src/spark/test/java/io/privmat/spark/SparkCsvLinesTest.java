package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No CSV line's content decides whether a pass succeeds: a line with more fields than Spark's CSV
 * parser allows (20 480 by default, which used to fail the pass on the executors after the charge)
 * is longer than the public line bound and is skipped, so a dataset holding it releases exactly
 * what the dataset without it releases (docs/scale-out.md, "The dataset kind").
 */
class SparkCsvLinesTest {

    private static final String WIDE = ",".repeat(25_000);

    private static String write(String name, String text) throws Exception {
        Path dir = SparkTestData.tempDir().resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("part-0.csv"), text, StandardCharsets.UTF_8);
        return dir.toString();
    }

    private static ExternalSchema ratings(String name, String extraLine) throws Exception {
        StringBuilder b = new StringBuilder("user,item,rating\n");
        SparkRatingsTest.triples(60, 7).forEach((u, rated) -> rated.forEach((i, r) -> b.append(u)
                .append(",film-").append(i).append(',').append(r).append('\n')));
        b.append(extraLine);
        return new ExternalSchema(write(name, b.toString()), ExternalSchema.Format.CSV,
                List.of("user", "item", "rating"), null, null, SparkRatingsTest.CSV_DECLARATION);
    }

    @Test
    void aRatingsLineWiderThanTheParserAllowsIsSkippedAndTheReleaseIsTheOneWithoutIt() throws Exception {
        Plan plan = SparkRatingsTest.plan("PRIVATE_SVD", RatingsRelation.USER, SparkRatingsTest.CSV_DECLARATION);
        SparkEngine engine = SparkTestData.engine();
        ExternalSchema without = ratings("csv-lines-without", "");
        ExternalSchema wide = ratings("csv-lines-wide", "user-x,film-1,4.0" + WIDE + "\n");
        engine.check(wide);
        double[] expected = SparkRatingsTest.values(plan.release(
                new SparkRatings(engine, without, new SparkTestData.Recorder()), TestNoiseSources.seeded(1)));
        double[] got = SparkRatingsTest.values(plan.release(
                new SparkRatings(engine, wide, new SparkTestData.Recorder()), TestNoiseSources.seeded(1)));
        assertThat(got).containsExactly(expected);
    }

    @Test
    void aMatrixLineWiderThanTheParserAllowsIsSkippedUnderAddRemove() throws Exception {
        StringBuilder b = new StringBuilder("c0,c1\n");
        for (int i = 0; i < 50; i++) {
            b.append(i % 3 * 0.1).append(',').append(i % 5 * 0.1).append('\n');
        }
        var facts = SparkTestData.facts(2, 1.0, null, NeighbouringRelation.ADD_REMOVE);
        ExternalSchema without = new ExternalSchema(write("csv-lines-m", b.toString()), ExternalSchema.Format.CSV,
                List.of("c0", "c1"), null);
        ExternalSchema wide = new ExternalSchema(write("csv-lines-m-wide", b + "0.1,0.2" + WIDE + "\n"),
                ExternalSchema.Format.CSV, List.of("c0", "c1"), null);
        assertThat(SparkTestData.access(wide, facts, new SparkTestData.Recorder()).columnSums())
                .containsExactly(SparkTestData.access(without, facts, new SparkTestData.Recorder()).columnSums());
    }

    @Test
    void theLineBoundComesFromDAloneAndHoldsTheHeader() {
        assertThat(SparkEngine.csvMaxLine(1)).isEqualTo(4096);
        assertThat(SparkEngine.csvMaxLine(3)).isEqualTo(4096);
        // d names of at most 200 characters and their commas fit.
        assertThat(SparkEngine.csvMaxLine(65_536)).isGreaterThanOrEqualTo(201 * 65_536);
    }
}
