package io.privmat.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An allowed location is a directory, whether or not its prefix ends in a slash. */
class ExternalSettingsTest {

    @Test
    void aPrefixIsADirectoryNotTheStartOfANameAndABlankOneAllowsNothing() {
        ExternalSettings bare = new ExternalSettings(List.of("s3a://lake/privmat"));
        assertThat(bare.allows("s3a://lake/privmat/ratings/")).isTrue();
        assertThat(bare.allows("s3a://lake/privmat")).isTrue();
        assertThat(bare.allows("s3a://lake/privmat-other/ratings/")).isFalse();
        ExternalSettings slash = new ExternalSettings(List.of("/data/"));
        assertThat(slash.allows("/data/x.parquet")).isTrue();
        assertThat(slash.allows("/database/x.parquet")).isFalse();
        assertThat(new ExternalSettings(Arrays.asList(" ", null)).allows("/data/x")).isFalse();
        assertThat(new ExternalSettings(List.of()).allows("/data/x")).isFalse();
        assertThat(new ExternalSettings(null).allows("/data/x")).isFalse();
    }
}
