package io.privmat.dataset.web;

import io.privmat.dataset.DatasetKind;
import io.privmat.dataset.HistogramSchema;
import io.privmat.problem.PrivmatException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Validates a histogram's declared attributes (required for HISTOGRAM, refused for other kinds). */
final class HistogramAttributes {

    private HistogramAttributes() {}

    static @Nullable HistogramSchema validate(DatasetKind kind, @Nullable List<CreateDatasetRequest.AttributeRequest> given) {
        if (kind != DatasetKind.HISTOGRAM) {
            if (given != null && !given.isEmpty()) {
                throw PrivmatException.invalidParameter("attributes", "absent", "attributes apply to a HISTOGRAM only");
            }
            return null;
        }
        if (given == null) {
            throw PrivmatException.invalidParameter("attributes", "1 to " + HistogramSchema.MAX_ATTRIBUTES
                    + " attributes", "a HISTOGRAM needs its attributes: [{\"name\": …, \"size\": …}, …]");
        }
        if (given.isEmpty() || given.size() > HistogramSchema.MAX_ATTRIBUTES) {
            throw PrivmatException.invalidParameter("attributes", "1 to " + HistogramSchema.MAX_ATTRIBUTES
                    + " attributes", "attributes must list 1 to " + HistogramSchema.MAX_ATTRIBUTES + " attributes but had "
                    + given.size());
        }
        List<HistogramSchema.Attribute> attributes = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            CreateDatasetRequest.AttributeRequest a = given.get(i);
            String where = "attributes[" + i + "]";
            if (a == null) {
                throw PrivmatException.invalidParameter(where, "an object", where + " must be an object");
            }
            Integer size = a.size();
            if (a.labels() != null) {
                if (a.labels().size() > HistogramSchema.MAX_CELLS) {
                    throw PrivmatException.invalidParameter(where + ".labels", "at most " + HistogramSchema.MAX_CELLS,
                            where + ".labels has more than " + HistogramSchema.MAX_CELLS + " labels");
                }
                if (size != null && size != a.labels().size()) {
                    throw PrivmatException.invalidParameter(where + ".size", "the number of labels",
                            where + ".size must equal the number of labels (" + a.labels().size() + ") but was " + size);
                }
                size = a.labels().size();
            }
            if (size == null) {
                throw PrivmatException.invalidParameter(where + ".size", "[1, " + HistogramSchema.MAX_CELLS + "]",
                        where + " needs a size or labels");
            }
            attributes.add(new HistogramSchema.Attribute(a.name(), size, a.labels()));
        }
        List<String[]> problems = HistogramSchema.problems(attributes);
        if (!problems.isEmpty()) {
            String[] p = problems.get(0);
            throw PrivmatException.invalidParameter(p[0], p[1], p[2]);
        }
        return new HistogramSchema(attributes);
    }
}
