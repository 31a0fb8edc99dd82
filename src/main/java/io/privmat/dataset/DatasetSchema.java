package io.privmat.dataset;

/**
 * The public structure an owner declares when creating a dataset of a kind that needs one (a
 * histogram's attributes and their domains, …). It is fixed before any data is seen, it is what
 * uploads are validated against, and mechanisms may depend on it: it is public, like the kind and
 * the budget. Stored as a JSON document with the dataset: each schema record is its own document
 * (its components in declared order, absent optional ones left out), read back through its
 * canonical constructor, which validates it again.
 */
public sealed interface DatasetSchema permits HistogramSchema, StreamSchema, ExternalSchema, RatingsSchema {

    /**
     * The record a stored document of {@code kind} reads into.
     *
     * @throws IllegalArgumentException when datasets of {@code kind} declare no schema
     */
    static Class<? extends DatasetSchema> documentType(DatasetKind kind) {
        return switch (kind) {
            case HISTOGRAM -> HistogramSchema.class;
            case STREAM -> StreamSchema.class;
            case EXTERNAL -> ExternalSchema.class;
            case RATINGS -> RatingsSchema.class;
            default -> throw new IllegalArgumentException("a " + kind + " dataset declares no schema");
        };
    }
}
