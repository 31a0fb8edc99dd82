package io.privmat.query;

import io.privmat.mechanism.covariance.WishartMechanism;
import io.privmat.mechanism.sketch.JlGraphSketch;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import org.jspecify.annotations.Nullable;

/** How a SKETCH job runs: exactly one sketch mechanism, and ν for the stated intervals. */
record SketchSpec(@Nullable JlGraphSketch graph, @Nullable JlMatrixSketch matrix, @Nullable WishartMechanism wishart,
        double nu) {}
