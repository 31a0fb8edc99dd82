package io.privmat.mechanism.catalog;

import java.util.List;

/** A small matrix or edge list as a {@link DataAccess}, for the mechanism contract tests. */
public record InMemoryData(double[][] matrixRows, int d, List<double[]> edgeList, double[] counts) implements DataAccess {

    public static InMemoryData matrix(double[][] rows) {
        return new InMemoryData(rows, rows.length == 0 ? 0 : rows[0].length, List.of(), new double[0]);
    }

    static InMemoryData graph(List<double[]> edges) {
        return new InMemoryData(new double[0][], 0, edges, new double[0]);
    }

    /** A histogram: counts per cell. */
    static InMemoryData histogram(double[] counts) {
        return new InMemoryData(new double[0][], counts.length, List.of(), counts.clone());
    }

    /** The record count of a histogram. */
    long records() {
        double s = 0;
        for (double c : counts) {
            s += c;
        }
        return (long) s;
    }

    @Override
    public double[] histogram() {
        return counts.clone();
    }

    @Override
    public double[] columnSums() {
        double[] s = new double[d];
        for (double[] r : matrixRows) {
            for (int j = 0; j < d; j++) {
                s[j] += r[j];
            }
        }
        return s;
    }

    @Override
    public Gram gram(boolean withSums) {
        double[] g = new double[d * d];
        for (double[] r : matrixRows) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    g[i * d + j] += r[i] * r[j];
                }
            }
        }
        return new Gram(g, withSums ? columnSums() : new double[0]);
    }

    @Override
    public RowStream rows(int passes) {
        return visitor -> {
            double[] block = new double[matrixRows.length * d];
            for (int i = 0; i < matrixRows.length; i++) {
                System.arraycopy(matrixRows[i], 0, block, i * d, d);
            }
            visitor.block(block, matrixRows.length, 0);
        };
    }

    @Override
    public EdgeSource edges() {
        return visitor -> edgeList.forEach(e -> visitor.edge((int) e[0], (int) e[1], e[2]));
    }
}
