package io.privmat.dataset.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.DatasetSchema;
import io.privmat.dataset.ExternalSchema;
import io.privmat.dataset.HistogramSchema;
import io.privmat.dataset.RatingsSchema;
import io.privmat.dataset.StreamSchema;
import io.privmat.mechanism.catalog.BlockRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The declaration documents stored with datasets: each schema writes the JSON the hand-built maps
 * wrote before it became its own document (same keys, same order, optional members left out), and
 * documents stored that way read back to the same schema.
 */
class SchemaDocumentTest {

    private static void roundTrip(DatasetKind kind, DatasetSchema schema, String json) {
        assertThat(DatasetRepository.document(schema)).isEqualTo(json);
        assertThat(DatasetRepository.schema(kind, json)).isEqualTo(schema);
    }

    @Test
    void histogramAttributesWithAndWithoutLabels() {
        roundTrip(DatasetKind.HISTOGRAM, new HistogramSchema(List.of(
                new HistogramSchema.Attribute("age", 3, List.of("young", "mid", "old")),
                new HistogramSchema.Attribute("bucket", 2, null))),
                "{\"attributes\":[{\"name\":\"age\",\"size\":3,\"labels\":[\"young\",\"mid\",\"old\"]},"
                        + "{\"name\":\"bucket\",\"size\":2}]}");
    }

    @Test
    void streamsByRowCountAndByTime() {
        roundTrip(DatasetKind.STREAM, new StreamSchema(4, false, BlockRule.ROW_COUNT, 100, 0, 8, 1000),
                "{\"d\":4,\"graph\":false,\"blockRule\":\"ROW_COUNT\",\"blockRows\":100,\"blockSeconds\":0,"
                        + "\"windowBlocks\":8,\"horizonBlocks\":1000}");
        roundTrip(DatasetKind.STREAM, new StreamSchema(6, true, BlockRule.TIME, 0, 3600, 24, 1L << 40),
                "{\"d\":6,\"graph\":true,\"blockRule\":\"TIME\",\"blockRows\":0,\"blockSeconds\":3600,"
                        + "\"windowBlocks\":24,\"horizonBlocks\":1099511627776}");
        // A budget that renews per period: periodBlocks is stored; without it the document is as before.
        roundTrip(DatasetKind.STREAM, new StreamSchema(4, false, BlockRule.ROW_COUNT, 100, 0, 8, 1000, 24L),
                "{\"d\":4,\"graph\":false,\"blockRule\":\"ROW_COUNT\",\"blockRows\":100,\"blockSeconds\":0,"
                        + "\"windowBlocks\":8,\"horizonBlocks\":1000,\"periodBlocks\":24}");
    }

    @Test
    void externalSourcesWithAndWithoutADeclaredCount() {
        roundTrip(DatasetKind.EXTERNAL, new ExternalSchema("s3a://b/p", ExternalSchema.Format.PARQUET,
                List.of("a", "b"), 1000L),
                "{\"location\":\"s3a://b/p\",\"format\":\"PARQUET\",\"columns\":[\"a\",\"b\"],\"declaredRows\":1000}");
        roundTrip(DatasetKind.EXTERNAL, new ExternalSchema("/data/x.csv", ExternalSchema.Format.CSV, List.of("c"), null),
                "{\"location\":\"/data/x.csv\",\"format\":\"CSV\",\"columns\":[\"c\"]}");
        roundTrip(DatasetKind.EXTERNAL, new ExternalSchema("/data/v", ExternalSchema.Format.PARQUET, List.of("a", "b"),
                7L, "features"), "{\"location\":\"/data/v\",\"format\":\"PARQUET\",\"columns\":[\"a\",\"b\"],"
                + "\"declaredRows\":7,\"vector\":\"features\"}");
    }

    @Test
    void ratingsWithAndWithoutLabels() {
        roundTrip(DatasetKind.RATINGS, new RatingsSchema(3, List.of("x", "y", "z"), 1, 5, 2,
                RatingsSchema.Declared.RATING),
                "{\"items\":3,\"labels\":[\"x\",\"y\",\"z\"],\"min\":1.0,\"max\":5.0,\"perUserCap\":2,"
                        + "\"relation\":\"RATING\"}");
        roundTrip(DatasetKind.RATINGS, new RatingsSchema(100, null, 0.5, 4.5, 20, RatingsSchema.Declared.USER),
                "{\"items\":100,\"min\":0.5,\"max\":4.5,\"perUserCap\":20,\"relation\":\"USER\"}");
    }

    @Test
    void storedDocumentsReadWhateverTheNumberSpellingAndKeyOrder() {
        // jsonb stores keys in its own order and writes 1.0 back as 1.0 or 1: both read as before.
        assertThat(DatasetRepository.schema(DatasetKind.RATINGS,
                "{\"relation\": \"USER\", \"max\": 5, \"min\": 1, \"items\": 3, \"perUserCap\": 2}"))
                .isEqualTo(new RatingsSchema(3, null, 1, 5, 2, RatingsSchema.Declared.USER));
    }

    @Test
    void aDocumentTheSchemaRefusesIsNotRead() {
        assertThatThrownBy(() -> DatasetRepository.schema(DatasetKind.STREAM,
                "{\"d\":4,\"graph\":false,\"blockRule\":\"TIME\",\"blockRows\":100,\"blockSeconds\":0,"
                        + "\"windowBlocks\":8,\"horizonBlocks\":1000}"))
                .hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DatasetSchema.documentType(DatasetKind.MATRIX))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
