package io.privmat.mechanism.catalog;

/** Receives one edge of an {@link EdgeSource}. */
@FunctionalInterface
public interface EdgeVisitor {

    void edge(int u, int v, double weight);
}
