package io.privmat.stream;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.StreamSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.StreamLayout;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.util.Map;

/** A stream dataset's public facts and window parameters, from its declaration alone. */
public final class StreamFacts {

    private StreamFacts() {}

    /** The declaration, or 409 WRONG_DATASET_KIND for any other dataset. */
    public static StreamSchema schema(Dataset dataset) {
        if (!(dataset.schema() instanceof StreamSchema s)) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "Dataset " + dataset.id() + " is a "
                    + dataset.kind() + ", not a STREAM.", Map.of("datasetId", dataset.id().toString()));
        }
        return s;
    }

    public static NeighbouringRelation relation(Dataset dataset) {
        return dataset.neighbouring() == Neighbouring.ADD_REMOVE ? NeighbouringRelation.ADD_REMOVE
                : NeighbouringRelation.REPLACE_ONE;
    }

    /** B: the declared row bound, or √2 for an edge stream (the norm of a unit-weight edge row). */
    public static double rowBound(Dataset dataset) {
        StreamSchema s = schema(dataset);
        return s.graph() ? Math.sqrt(2) : dataset.rowNormBound();
    }

    public static StreamLayout layout(StreamSchema s) {
        return new StreamLayout(s.blockRule(), s.blockRows(), s.windowBlocks(), s.horizonBlocks(), s.graph());
    }

    /** What a subscription's plan may use: d, B, relation, accounting and the block layout. */
    public static PublicFacts facts(Dataset dataset) {
        StreamSchema s = schema(dataset);
        return PublicFacts.stream(s.d(), rowBound(dataset), relation(dataset), dataset.budget().mode(), layout(s));
    }

    public static WindowParameters parameters(Dataset dataset) {
        StreamSchema s = schema(dataset);
        return layout(s).parameters(s.d(), rowBound(dataset), relation(dataset));
    }
}
