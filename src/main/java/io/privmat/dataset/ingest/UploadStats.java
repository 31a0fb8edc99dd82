package io.privmat.dataset.ingest;

/** What an upload stored: shape, non-zeros, clipped rows, source format, storage layout, bytes read. */
public record UploadStats(long rows, long cols, long nnz, long clippedRows, String format, String storage, long bytes,
        java.util.@org.jspecify.annotations.Nullable List<String> columnLabels) {}
