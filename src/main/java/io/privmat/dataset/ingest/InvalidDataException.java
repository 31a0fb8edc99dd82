package io.privmat.dataset.ingest;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An upload is malformed. The detail names the position (line and column for text formats, byte
 * offset for binary ones) and the rule broken, never the offending value.
 */
public final class InvalidDataException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    private InvalidDataException(String detail, Map<String, Object> properties) {
        super(ProblemType.INVALID_DATA, detail, properties);
    }

    public static InvalidDataException at(long line, int column, String rule) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("line", line);
        if (column > 0) {
            props.put("column", column);
        }
        String where = column > 0 ? "line " + line + ", column " + column : "line " + line;
        return new InvalidDataException(where + ": " + rule, props);
    }

    public static InvalidDataException atByte(long byteOffset, String rule) {
        return new InvalidDataException("byte offset " + byteOffset + ": " + rule, Map.of("byteOffset", byteOffset));
    }

    public static InvalidDataException whole(String rule) {
        return new InvalidDataException(rule, Map.of());
    }
}
