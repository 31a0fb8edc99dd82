package io.privmat.dataset.ingest;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.dataset.DatasetKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Accepted upload media types, by dataset kind. */
public enum UploadFormat {
    CSV("text/csv"),
    TSV("text/tab-separated-values"),
    MATRIX_MARKET("application/x-matrix-market"),
    NPY("application/x-npy");

    private final String mediaType;

    UploadFormat(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** The media types a dataset of this kind accepts. */
    public static List<UploadFormat> accepted(DatasetKind kind) {
        return switch (kind) {
            case MATRIX -> List.of(CSV, TSV, MATRIX_MARKET, NPY);
            case HISTOGRAM -> List.of(CSV, TSV, NPY);
            default -> List.of(CSV, TSV);
        };
    }

    /** Resolves a Content-Type header (parameters such as charset are ignored) or answers 415. */
    public static UploadFormat resolve(String contentType, DatasetKind kind) {
        String base = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        for (UploadFormat f : accepted(kind)) {
            if (f.mediaType.equals(base) || (f == MATRIX_MARKET && base.equals("text/x-matrix-market"))) {
                return f;
            }
        }
        List<String> supported = accepted(kind).stream().map(UploadFormat::mediaType).toList();
        throw new PrivmatException(ProblemType.UNSUPPORTED_MEDIA_TYPE,
                "A " + kind + " dataset accepts Content-Type " + String.join(", ", supported)
                        + (base.isEmpty() ? "; none was given." : "; got " + base + "."),
                Map.of("supported", supported));
    }
}
