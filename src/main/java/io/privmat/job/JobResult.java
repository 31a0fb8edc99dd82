package io.privmat.job;

import org.jspecify.annotations.Nullable;

/** A stored result. */
public record JobResult(String json, @Nullable String arrayName, int @Nullable [] arrayShape,
        byte @Nullable [] arrayLittleEndianFloat64) {}
