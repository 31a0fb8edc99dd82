package io.privmat.query;

import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.lowrank.NoisyPowerMechanism;
import io.privmat.mechanism.lowrank.OrbitSamplingMechanism;
import io.privmat.mechanism.lowrank.PrivateOjaMechanism;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import org.jspecify.annotations.Nullable;

/**
 * How a LOW_RANK or TOP_SINGULAR_VECTORS job runs: exactly one of the five mechanisms and the rank
 * k. The row-based mechanisms (randomized response, Hardt–Roth) read the rows twice; the others read
 * the Gram matrix once (or, too wide for the Gram, the rows once per one of {@code iterations}).
 */
record LowRankSpec(@Nullable RandomizedResponseMechanism randomizedResponse,
        @Nullable HardtRothMechanism hardtRoth, @Nullable NoisyPowerMechanism noisyPower,
        @Nullable PrivateOjaMechanism oja, @Nullable OrbitSamplingMechanism orbit, int k, boolean leftFactor, int iterations) {

    boolean rowBased() {
        return randomizedResponse != null || hardtRoth != null;
    }
}
