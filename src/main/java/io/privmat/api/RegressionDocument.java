package io.privmat.api;

import io.privmat.mechanism.analytics.RegressionResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A regression result as JSON-ready fields, shared by REGRESSION jobs and the free regression on a
 * release. An interval end that the release does not bound (±∞) is written as null.
 */
public final class RegressionDocument {

    private RegressionDocument() {}

    public static Map<String, Object> of(RegressionResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("response", r.response());
        m.put("predictors", r.predictors());
        m.put("ridge", r.ridge());
        m.put("ridgeRule", r.ridgeRule());
        m.put("estimand", r.estimand());
        m.put("level", r.level());
        m.put("intervals", r.intervals().name());
        List<Map<String, Object>> coefficients = new ArrayList<>();
        for (int j = 0; j < r.estimate().length; j++) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("column", r.predictors()[j]);
            c.put("estimate", r.estimate()[j]);
            c.put("lower", finite(r.lower()[j]));
            c.put("upper", finite(r.upper()[j]));
            c.put("approximateLower", r.approximateLower()[j]);
            c.put("approximateUpper", r.approximateUpper()[j]);
            c.put("approximateStandardError", r.approximateStandardError()[j]);
            coefficients.add(c);
        }
        m.put("coefficients", coefficients);
        return m;
    }

    static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
