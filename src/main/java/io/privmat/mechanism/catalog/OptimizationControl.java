package io.privmat.mechanism.catalog;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleConsumer;

/**
 * Progress reporting and cancellation for a strategy optimisation (a job): the optimiser reports a
 * fraction in [0, 1] and stops with a {@link CancellationException} at its next checkpoint once
 * {@code cancelled} says so or the thread is interrupted. Progress is a function of public inputs
 * only (iteration counts), like the strategy itself.
 */
public record OptimizationControl(DoubleConsumer progress, BooleanSupplier cancelled) {

    /** No progress reporting; cancellation by thread interruption only. */
    public static OptimizationControl none() {
        return new OptimizationControl(p -> { }, () -> false);
    }

    /** Reports progress and throws if cancelled. */
    public void checkpoint(double fraction) {
        if (cancelled.getAsBoolean() || Thread.currentThread().isInterrupted()) {
            throw new CancellationException("strategy optimisation cancelled");
        }
        progress.accept(Math.max(0, Math.min(1, fraction)));
    }

    /** A view reporting into [from, to] of this control's range. */
    public OptimizationControl slice(double from, double to) {
        return new OptimizationControl(p -> progress.accept(from + (to - from) * p), cancelled);
    }
}
