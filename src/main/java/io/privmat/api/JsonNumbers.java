package io.privmat.api;

import io.privmat.privacy.Decimals;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one rendering rule for privacy amounts in responses (README, "Numbers"): every cost, budget,
 * ε, δ, ρ, μ, remaining amount and loss is a JSON number in the shortest form that reads back as the
 * same double (what Jackson writes for a double: {@code 5.5E-7}, {@code 0.02408}). The ledger keeps
 * exact decimals and compares those; only the rendering rounds, in the direction that never favours
 * the analyst: what is charged or spent up, what is available (caps, remaining) down, so that a
 * refusal is always visible in the shown doubles (shown charge &gt; shown remaining).
 */
public final class JsonNumbers {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Shown loss documents by their stored text. The job, ledger, release, subscription and result
     * views show a stored loss document on every GET; its rendering depends on its text alone, and
     * one plan's text recurs across its views (and across jobs of the same request), so it is parsed
     * once per text, not once per response. Bounded: emptied when full; long texts are not kept.
     */
    private static final Map<String, String> SHOWN_LOSSES = new ConcurrentHashMap<>();
    private static final int SHOWN_LOSSES_MAX = 1024;
    private static final int SHOWN_LOSS_MAX_CHARS = 2048;

    private JsonNumbers() {}

    /** A charged, spent or reserved amount (or a loss): the smallest double ≥ it. */
    public static @Nullable Double charged(@Nullable BigDecimal value) {
        return value == null ? null : Decimals.toDoubleUp(value);
    }

    /** An available amount (a cap, what remains): the largest double ≤ it. */
    public static @Nullable Double available(@Nullable BigDecimal value) {
        return value == null ? null : Decimals.toDoubleDown(value);
    }

    /** A parameter as the caller gave it (a decimal it typed): the nearest double. */
    public static @Nullable Double given(@Nullable BigDecimal value) {
        return value == null ? null : value.doubleValue();
    }

    /** A stored loss document (JSON text): its decimals rounded up to doubles. */
    public static @Nullable String lossDocument(@Nullable String json) {
        if (json == null || json.length() > SHOWN_LOSS_MAX_CHARS) {
            return normalise(json, Scope.ALL_CHARGED);
        }
        String hit = SHOWN_LOSSES.get(json);
        if (hit != null) {
            return hit;
        }
        String shown = normalise(json, Scope.ALL_CHARGED);
        if (SHOWN_LOSSES.size() >= SHOWN_LOSSES_MAX) {
            SHOWN_LOSSES.clear();
        }
        SHOWN_LOSSES.put(json, shown);
        return shown;
    }

    /** A stored plan (JSON text): its decimals as the nearest doubles. */
    public static @Nullable String parametersDocument(@Nullable String json) {
        return normalise(json, Scope.NONE_CHARGED);
    }

    /**
     * A stored result document: its top-level {@code loss} member as {@link #lossDocument}. The rest
     * of a result was written from doubles, so only that member is read and rewritten: a large result
     * is scanned up to its loss (which comes first, after the small header fields), not copied.
     */
    public static String resultDocument(String json) {
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return json;
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                boolean loss = "loss".equals(p.currentName());
                JsonToken value = p.nextToken();
                int start = (int) p.currentTokenLocation().getCharOffset();
                p.skipChildren();
                if (loss && value == JsonToken.START_OBJECT) {
                    int end = (int) p.currentTokenLocation().getCharOffset() + 1;
                    String member = json.substring(start, end);
                    String shown = lossDocument(member);
                    return shown.equals(member) ? json : json.substring(0, start) + shown + json.substring(end);
                }
            }
        }
        return json;
    }

    private enum Scope { ALL_CHARGED, NONE_CHARGED }

    /**
     * Rewrites every number that is not already the shortest form of a double; such a number was
     * written from a double and stands for it, so it is kept as it is. Documents written before this
     * rule (decimals of 34 digits) are rendered by it on the way out; the stored text stays.
     */
    private static @Nullable String normalise(@Nullable String json, Scope scope) {
        if (json == null || !hasLongNumber(json)) {
            return json;
        }
        StringWriter out = new StringWriter(json.length());
        try (JsonParser p = JSON.createParser(json); JsonGenerator g = JSON.createGenerator(out)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.VALUE_NUMBER_FLOAT && !isShortestDouble(p.getString())) {
                    BigDecimal value = p.getDecimalValue();
                    g.writeNumber(scope == Scope.ALL_CHARGED ? Decimals.toDoubleUp(value) : value.doubleValue());
                } else {
                    g.copyCurrentEvent(p);
                }
            }
        }
        return out.toString();
    }

    /** True if {@code text} is the shortest decimal that reads back as its double. */
    static boolean isShortestDouble(String text) {
        double d = Double.parseDouble(text);
        return Double.isFinite(d) && new BigDecimal(text).compareTo(new BigDecimal(Double.toString(d))) == 0;
    }

    /**
     * A cheap scan: true if some run of digits (a number's mantissa, or digits inside a string) has 16
     * or more significant digits. A decimal of at most 15 significant digits is always the shortest
     * form of its nearest double, so a document without such a run needs no rewriting.
     */
    private static boolean hasLongNumber(String json) {
        int significant = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c >= '0' && c <= '9') {
                if (significant > 0 || c != '0') {
                    significant++;
                    if (significant >= 16) {
                        return true;
                    }
                }
            } else if (c != '.') {
                significant = 0;
            }
        }
        return false;
    }
}
