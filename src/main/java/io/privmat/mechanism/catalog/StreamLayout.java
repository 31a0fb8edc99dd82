package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;

/**
 * A stream's public block structure, declared at creation: how blocks close (every b rows, or at
 * public times), the window w in blocks, the horizon T in blocks, and whether rows are weighted edge
 * events on the declared vertex set. With the facts' d, B and relation it fixes the
 * {@link WindowParameters} every window mechanism on the stream is calibrated with.
 *
 * @param blockRows b under ROW_COUNT, 0 under TIME
 * @param graph true for an edge stream (d is the vertex count, B = √2)
 */
public record StreamLayout(BlockRule blockRule, int blockRows, int windowBlocks, long horizonBlocks, boolean graph) {

    /** The window parameters of a stream with these public facts. */
    public WindowParameters parameters(PublicFacts facts) {
        return parameters(facts.cols(), facts.rowNormBound(), facts.relation());
    }

    /** The window parameters for d (or the vertex count), B and the relation. */
    public WindowParameters parameters(int cols, double rowNormBound, NeighbouringRelation relation) {
        return new WindowParameters(cols, rowNormBound, blockRule, blockRows, windowBlocks, horizonBlocks, relation,
                graph);
    }
}
