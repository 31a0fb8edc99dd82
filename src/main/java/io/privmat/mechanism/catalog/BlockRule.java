package io.privmat.mechanism.catalog;

/** How a stream is cut into blocks; public, declared when the stream is created. */
public enum BlockRule {
    /**
     * Every block holds exactly {@code blockRows} row slots, in arrival order; the number of rows
     * in a window (w·b) is public. The neighbouring streams agree on every slot but one: under
     * ADD_REMOVE one slot holds a row in one stream and the empty (zero) row in the other, under
     * REPLACE_ONE two different rows. A deletion that moves later rows into earlier slots is not a
     * neighbour under either relation (it changes every later block).
     */
    ROW_COUNT,
    /**
     * Blocks are public time intervals, closed by the caller ({@link io.privmat.mechanism.window.WindowStream#closeBlock()});
     * a block holds however many rows arrived in it, and that count stays private. Adding or
     * removing one row changes exactly one block, so ADD_REMOVE holds in its usual sense.
     */
    TIME
}
