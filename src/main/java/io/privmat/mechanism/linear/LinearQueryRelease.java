package io.privmat.mechanism.linear;

import org.jspecify.annotations.Nullable;

/**
 * What a linear-query mechanism releases (all of it private output, except the public expected
 * error): the workload answers, the estimate x̂ when the strategy gives one (not for
 * noise on W·x directly), each answer's standard deviation and the expected per-query RMSE. Further
 * linear queries are answered from {@link #estimate()} with {@link Estimate#answer}.
 */
public record LinearQueryRelease(LinearMechanism mechanism, double[] answers, @Nullable Estimate estimate,
        double[] standardDeviations, ExpectedError expectedError) {

    public double expectedRmse() {
        return expectedError.perQueryRmse();
    }
}
