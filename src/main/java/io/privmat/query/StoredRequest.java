package io.privmat.query;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A job's stored parameters document, read back into the request that produced it. */
record StoredRequest(String kind, String mechanism, @Nullable BigDecimal epsilon, @Nullable BigDecimal delta,
        @Nullable BigDecimal rho, @Nullable Integer k, @Nullable Boolean center, @Nullable Double eta,
        @Nullable Double nu, @Nullable Integer oversampling, @Nullable Double coherence, @Nullable Integer iterations,
        @Nullable Double stepSize, @Nullable String spectrum, @Nullable Boolean shrink) {

    QueryRequest toRequest() {
        Map<String, Object> params = new LinkedHashMap<>();
        if (k != null) {
            params.put("k", k);
        }
        if (center != null) {
            params.put("center", center);
        }
        if (eta != null) {
            params.put("eta", eta);
        }
        if (nu != null) {
            params.put("nu", nu);
        }
        if (oversampling != null) {
            params.put("oversampling", oversampling);
        }
        if (coherence != null) {
            params.put("coherence", coherence);
        }
        if (iterations != null) {
            params.put("iterations", iterations);
        }
        if (stepSize != null) {
            params.put("stepSize", stepSize);
        }
        if (spectrum != null) {
            params.put("spectrum", spectrum);
        }
        if (shrink != null) {
            params.put("shrink", shrink);
        }
        return new QueryRequest(kind, mechanism, epsilon, delta, rho, params.isEmpty() ? null : params);
    }
}
