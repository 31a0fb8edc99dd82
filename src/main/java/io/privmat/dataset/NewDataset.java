package io.privmat.dataset;

import io.privmat.privacy.Budget;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A validated request to create a dataset.
 *
 * @param vertexLabels a graph's declared vertex universe (ids in this order), or null if undeclared
 * @param schema the declared structure of a kind that needs one (histograms), or null
 */
public record NewDataset(String owner, String name, DatasetKind kind, Neighbouring neighbouring, @Nullable Double rowNormBound,
        Budget budget, @Nullable List<String> vertexLabels, @Nullable DatasetSchema schema) {

    /** Without a declared vertex universe or schema. */
    public NewDataset(String owner, String name, DatasetKind kind, Neighbouring neighbouring,
            @Nullable Double rowNormBound, Budget budget) {
        this(owner, name, kind, neighbouring, rowNormBound, budget, null, null);
    }
}
