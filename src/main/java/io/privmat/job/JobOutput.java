package io.privmat.job;

import org.jspecify.annotations.Nullable;

/**
 * A job's result: a JSON document, and optionally its main array (row-major float64) so that it
 * can also be served as {@code .npy}.
 */
public record JobOutput(String json, @Nullable String arrayName, int @Nullable [] arrayShape,
        double @Nullable [] arrayData) {

    public static JobOutput json(String json) {
        return new JobOutput(json, null, null, null);
    }
}
