package io.privmat.plan;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * Canonical text of a document (sorted keys, plain decimals without trailing zeros, integers as
 * integers): its SHA-256 is the request hash that idempotency keys are checked against. The text is
 * the one query jobs have always been hashed by, so stored hashes keep matching.
 */
final class Canonical {

    private Canonical() {}

    static String text(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonNode value, StringBuilder out) {
        if (value.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                sorted.put(e.getKey(), e.getValue());
            }
            out.append('{');
            boolean first = true;
            for (var e : sorted.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append('"').append(escape(e.getKey())).append("\":");
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value.isArray()) {
            out.append('[');
            boolean first = true;
            for (JsonNode element : value.values()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(element, out);
            }
            out.append(']');
        } else if (value.isBigDecimal()) {
            BigDecimal d = value.decimalValue();
            out.append(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
        } else if (value.isFloatingPointNumber()) {
            // A double (or float) by its shortest text, as the request value it was.
            String text = value.isFloat() ? Float.toString(value.floatValue()) : Double.toString(value.doubleValue());
            out.append(new BigDecimal(text).stripTrailingZeros().toPlainString());
        } else if (value.isIntegralNumber()) {
            out.append(value.bigIntegerValue());
        } else if (value.isBoolean()) {
            out.append(value.booleanValue());
        } else if (value.isNull() || value.isMissingNode()) {
            out.append("null");
        } else {
            out.append('"').append(escape(value.stringValue())).append('"');
        }
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
