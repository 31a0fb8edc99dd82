package io.privmat.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.mechanism.analytics.RegressionResult;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The regression document renders as the hand-built maps did for REGRESSION jobs: members in order,
 * an interval end the release does not bound written as null.
 */
class RegressionDocumentTest {

    @Test
    void membersInOrderAndUnboundedEndsAsNull() {
        RegressionResult r = new RegressionResult(2, new int[] {0, 1}, 0, "NONE", 0.95, new double[] {1.5, -0.25},
                new double[] {1.0, Double.NEGATIVE_INFINITY}, new double[] {2.0, Double.POSITIVE_INFINITY},
                RegressionResult.Intervals.SIMULTANEOUS_BOUND, new double[] {1.25, -0.5}, new double[] {1.75, 0.0},
                new double[] {0.125, 0.25});
        assertThat(JsonMapper.builder().build().writeValueAsString(RegressionDocument.of(r))).isEqualTo("{"
                + "\"response\":2,\"predictors\":[0,1],\"ridge\":0.0,\"ridgeRule\":\"NONE\",\"estimand\":\""
                + r.estimand() + "\",\"level\":0.95,\"intervals\":\"SIMULTANEOUS_BOUND\",\"coefficients\":["
                + "{\"column\":0,\"estimate\":1.5,\"lower\":1.0,\"upper\":2.0,\"approximateLower\":1.25,"
                + "\"approximateUpper\":1.75,\"approximateStandardError\":0.125},"
                + "{\"column\":1,\"estimate\":-0.25,\"lower\":null,\"upper\":null,\"approximateLower\":-0.5,"
                + "\"approximateUpper\":0.0,\"approximateStandardError\":0.25}]}");
    }
}
