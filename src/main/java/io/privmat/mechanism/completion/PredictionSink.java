package io.privmat.mechanism.completion;

/**
 * Receives one user's completed row (n predictions, on the rating scale). Under joint DP these rows
 * go to the data owner only, never to analysts (docs/mechanisms/completion.md, "Delivery").
 */
@FunctionalInterface
public interface PredictionSink {

    void row(int user, double[] predictions);
}
