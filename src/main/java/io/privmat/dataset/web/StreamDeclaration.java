package io.privmat.dataset.web;

import io.privmat.dataset.Neighbouring;
import io.privmat.dataset.StreamSchema;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.problem.PrivmatException;
import org.jspecify.annotations.Nullable;

/** Validates a stream's declared block structure (required for STREAM). */
final class StreamDeclaration {

    private StreamDeclaration() {}

    /**
     * @param vertices the declared vertex count of an edge stream, or null for a matrix stream
     * @param neighbouring the declared relation: ADD_REMOVE needs time blocks (see below)
     */
    static StreamSchema validate(CreateDatasetRequest.@Nullable StreamRequest s, @Nullable Integer vertices,
            Neighbouring neighbouring) {
        if (s == null) {
            throw PrivmatException.invalidParameter("stream", "an object", "a STREAM needs its block structure: "
                    + "{\"columns\": d, \"blockRows\": b or \"blockSeconds\": s, \"windowBlocks\": w, "
                    + "\"horizonBlocks\": T}");
        }
        int d;
        if (vertices != null) {
            if (s.columns() != null) {
                throw PrivmatException.invalidParameter("stream.columns", "absent", "an edge stream's width is its "
                        + "declared vertex count; stream.columns applies to a matrix stream");
            }
            if (vertices < 2 || vertices > StreamSchema.MAX_D) {
                throw PrivmatException.invalidParameter("vertices", "[2, " + StreamSchema.MAX_D + "] vertices",
                        "an edge stream needs 2 to " + StreamSchema.MAX_D + " declared vertices but had " + vertices);
            }
            d = vertices;
        } else {
            d = range("stream.columns", s.columns(), 1, StreamSchema.MAX_D);
        }
        if ((s.blockRows() == null) == (s.blockSeconds() == null)) {
            throw PrivmatException.invalidParameter("stream.blockRows", "blockRows or blockSeconds",
                    "a stream needs exactly one of stream.blockRows and stream.blockSeconds");
        }
        BlockRule rule = s.blockRows() != null ? BlockRule.ROW_COUNT : BlockRule.TIME;
        if (rule == BlockRule.ROW_COUNT && neighbouring == Neighbouring.ADD_REMOVE) {
            // With blocks of b rows, removing a row shifts every later row into an earlier block, so
            // every later block changes: the sensitivity of a real removal is unbounded. Only "a row
            // replaced by another (or by a zero row)" keeps one block's change bounded, which is
            // REPLACE_ONE. Time blocks place a row by its time, so a removal changes one block.
            throw PrivmatException.invalidParameter("neighbouring", "REPLACE_ONE with stream.blockRows, or "
                    + "stream.blockSeconds", "ADD_REMOVE needs time blocks (stream.blockSeconds): with blocks of a "
                    + "fixed number of rows, removing a row moves every later row into an earlier block; use "
                    + "REPLACE_ONE (a row replaced by any other, a zero row included)");
        }
        int blockRows = rule == BlockRule.ROW_COUNT
                ? range("stream.blockRows", s.blockRows(), 1, StreamSchema.MAX_BLOCK_ROWS) : 0;
        long blockSeconds = rule == BlockRule.TIME
                ? range("stream.blockSeconds", s.blockSeconds(), 1, StreamSchema.MAX_BLOCK_SECONDS) : 0;
        int window = range("stream.windowBlocks", s.windowBlocks(), 1, StreamSchema.MAX_WINDOW_BLOCKS);
        long horizon = range("stream.horizonBlocks", s.horizonBlocks(), 1, StreamSchema.MAX_HORIZON_BLOCKS);
        Long period = null;
        if (s.periodBlocks() != null) {
            period = range("stream.periodBlocks", s.periodBlocks(), 1, StreamSchema.MAX_PERIOD_BLOCKS);
            if (rule == BlockRule.TIME) {
                // Not offered on TIME blocks yet (docs/accounting.md §13, "TIME streams"): there the
                // charges of a new period are made when the scheduler closes a block, and that moment —
                // which appends holding the stream's lock can delay — would show in what analysts see
                // (who is charged first, creations refused or not, status fields, ledger times) before
                // the public release time. Under REPLACE_ONE, moreover, a replaced event may move to
                // another period, and that pair would change two periods.
                throw PrivmatException.invalidParameter("stream.periodBlocks", "absent on a TIME stream",
                        "a budget that renews per period is offered on streams blocked by row count (blockRows) "
                        + "only: on TIME blocks the moment a new period's charges are made is not yet kept to the "
                        + "public clock (docs/accounting.md, \"Budgets that renew per period\")");
            }
        }
        return new StreamSchema(d, vertices != null, rule, blockRows, blockSeconds, window, horizon, period);
    }

    private static int range(String name, @Nullable Integer value, int min, int max) {
        return (int) range(name, value == null ? null : value.longValue(), min, max);
    }

    private static long range(String name, @Nullable Long value, long min, long max) {
        if (value == null || value < min || value > max) {
            throw PrivmatException.invalidParameter(name, "[" + min + ", " + max + "]",
                    name + " is required and must be in [" + min + ", " + max + "] but was " + value);
        }
        return value;
    }
}
