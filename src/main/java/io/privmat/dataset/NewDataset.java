package io.privmat.dataset;

import io.privmat.privacy.Budget;
import org.jspecify.annotations.Nullable;

/** A validated request to create a dataset. */
public record NewDataset(String owner, String name, DatasetKind kind, Neighbouring neighbouring, @Nullable Double rowNormBound,
        Budget budget) {}
