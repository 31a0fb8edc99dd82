package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import java.util.List;

/**
 * COMPLETION: the global model (what analysts get: item directions or factors and a spectrum),
 * from which each user's completed row is computed with that user's own ratings only.
 */
public record CompletionRelease(CompletionModel model) implements Release {

    /** The warnings of the model's released spectrum against its noise bound (docs/accuracy/warnings.md). */
    public List<NoiseWarning> warnings(ResultAccuracy accuracy) {
        return CompletionWarnings.of(this, accuracy);
    }
}
