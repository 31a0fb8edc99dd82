package io.privmat.dataset.ingest;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;

/**
 * An upload is malformed. The detail names the position (line and column for text formats, byte
 * offset for binary ones) and the rule broken, never the offending value.
 */
public final class InvalidDataException extends PrivmatException {

    private static final long serialVersionUID = 1L;

    private InvalidDataException(String detail, ProblemProperties properties) {
        super(ProblemType.INVALID_DATA, detail, properties);
    }

    public static InvalidDataException at(long line, int column, String rule) {
        ProblemProperties props = ProblemProperties.of("line", line);
        if (column > 0) {
            props = props.with("column", column);
        }
        String where = column > 0 ? "line " + line + ", column " + column : "line " + line;
        return new InvalidDataException(where + ": " + rule, props);
    }

    public static InvalidDataException atByte(long byteOffset, String rule) {
        return new InvalidDataException("byte offset " + byteOffset + ": " + rule, ProblemProperties.of("byteOffset", byteOffset));
    }

    public static InvalidDataException whole(String rule) {
        return new InvalidDataException(rule, ProblemProperties.none());
    }
}
