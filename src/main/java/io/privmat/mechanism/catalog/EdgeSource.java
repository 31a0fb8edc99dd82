package io.privmat.mechanism.catalog;

/** A graph's edges as {@link DataAccess#edges()} gives them: (u, v, weight), u ≠ v, weights in [0, 1]. */
public interface EdgeSource {

    void forEachEdge(EdgeVisitor visitor);
}
