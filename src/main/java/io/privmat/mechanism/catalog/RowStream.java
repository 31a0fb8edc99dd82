package io.privmat.mechanism.catalog;

/**
 * One pass over a matrix's rows in blocks (the stored chunks), in row order; may be called
 * several times. Blocks are dense row-major {@code rows × d}.
 */
@FunctionalInterface
public interface RowStream {

    void forEachBlock(BlockVisitor visitor);

    @FunctionalInterface
    interface BlockVisitor {
        void block(double[] rows, int count, long firstRow);
    }
}
