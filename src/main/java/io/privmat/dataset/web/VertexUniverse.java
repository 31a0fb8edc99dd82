package io.privmat.dataset.web;

import io.privmat.problem.PrivmatException;
import io.privmat.dataset.DatasetKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Validates a graph's declared vertex universe (docs/adr/0006-privacy-hardening.md). */
final class VertexUniverse {

    static final int MAX_VERTICES = 1_000_000;
    static final int MAX_LABEL = 1000;

    private VertexUniverse() {}

    /** The declared labels in id order, or null when nothing is declared. */
    static @Nullable List<String> validate(DatasetKind kind, CreateDatasetRequest.@Nullable VerticesRequest v) {
        if (v == null) {
            return null;
        }
        if (kind != DatasetKind.GRAPH && kind != DatasetKind.STREAM) {
            throw PrivmatException.invalidParameter("vertices", "absent", "vertices applies to a GRAPH or an edge "
                    + "STREAM only");
        }
        if ((v.count() == null) == (v.labels() == null)) {
            throw PrivmatException.invalidParameter("vertices", "count or labels",
                    "vertices needs exactly one of count and labels");
        }
        if (v.count() != null) {
            int n = v.count();
            if (n < 1 || n > MAX_VERTICES) {
                throw PrivmatException.invalidParameter("vertices.count", "[1, " + MAX_VERTICES + "]",
                        "vertices.count must be in [1, " + MAX_VERTICES + "] but was " + n);
            }
            List<String> labels = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                labels.add(Integer.toString(i));
            }
            return labels;
        }
        List<String> labels = v.labels();
        if (labels.isEmpty() || labels.size() > MAX_VERTICES) {
            throw PrivmatException.invalidParameter("vertices.labels", "1 to " + MAX_VERTICES + " labels",
                    "vertices.labels must have 1 to " + MAX_VERTICES + " labels but had " + labels.size());
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < labels.size(); i++) {
            String label = labels.get(i);
            if (label == null || label.isEmpty() || label.length() > MAX_LABEL) {
                throw PrivmatException.invalidParameter("vertices.labels[" + i + "]", "1–" + MAX_LABEL + " characters",
                        "vertices.labels[" + i + "] must have 1–" + MAX_LABEL + " characters");
            }
            if (!seen.add(label)) {
                throw PrivmatException.invalidParameter("vertices.labels[" + i + "]", "distinct labels",
                        "vertices.labels[" + i + "] repeats an earlier label");
            }
        }
        return List.copyOf(labels);
    }
}
