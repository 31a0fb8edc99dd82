package io.privmat.dataset;

import java.util.Map;

/**
 * The public structure an owner declares when creating a dataset of a kind that needs one (a
 * histogram's attributes and their domains, …). It is fixed before any data is seen, it is what
 * uploads are validated against, and mechanisms may depend on it: it is public, like the kind and
 * the budget. Stored as a JSON document with the dataset.
 */
public sealed interface DatasetSchema permits HistogramSchema, StreamSchema, ExternalSchema, RatingsSchema {

    /** The document stored with the dataset (maps, lists, strings and numbers only). */
    Map<String, Object> toDocument();

    /**
     * Reads a stored document back.
     *
     * @throws IllegalArgumentException when the document does not describe a schema of {@code kind}
     */
    static DatasetSchema fromDocument(DatasetKind kind, Map<String, Object> document) {
        return switch (kind) {
            case HISTOGRAM -> HistogramSchema.fromDocument(document);
            case STREAM -> StreamSchema.fromDocument(document);
            case EXTERNAL -> ExternalSchema.fromDocument(document);
            case RATINGS -> RatingsSchema.fromDocument(document);
            default -> throw new IllegalArgumentException("a " + kind + " dataset declares no schema");
        };
    }
}
