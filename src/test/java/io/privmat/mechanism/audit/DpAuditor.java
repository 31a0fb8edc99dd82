package io.privmat.mechanism.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A black-box statistical test of (ε, δ)-DP on samples of a mechanism's output on two neighbouring
 * inputs D and D′ (docs/privacy-audit.md; the method: docs/accounting.md §7).
 *
 * <p>Each output is a small vector of post-processed statistics (1 or 2 numbers). Both sample sets
 * are split in halves. On the first half the outputs are binned (pooled quantiles per coordinate)
 * and an event S is chosen among the threshold events {x ≤ t}, {x &gt; t} (one coordinate) and the
 * histogram events "the bins with the largest ratio n_D/n_D′" (all prefixes of the bins sorted by
 * that ratio), maximising the lower bound on the first half. On the held-out second half
 * k₁ = #{M(D) ∈ S}, k₂ = #{M(D′) ∈ S} give Clopper–Pearson bounds p_lo, q_hi at level β/4 each and
 * ε_LB = ln((p_lo − δ)/q_hi); the same is done with D and D′ swapped, and the larger value is
 * returned. Since the event is chosen without looking at the second half, P[ε_LB &gt; true ε] ≤ β
 * for any mechanism that is (ε, δ)-DP.
 */
final class DpAuditor {

    /** An audit's outcome: the ε lower bound, the event that gave it and its held-out counts. */
    record Result(double epsilonLowerBound, String event, long countD, long countNeighbour, long samplesPerSide) {}

    private static final int BINS_1D = 100;
    private static final int BINS_2D = 12;

    private DpAuditor() {}

    /**
     * @param onD outputs on D, each a vector of the same length (1 or 2)
     * @param onNeighbour outputs on D′
     * @param delta the claimed δ (0 for pure DP)
     * @param beta the test's false-alarm probability
     */
    static Result epsilonLowerBound(double[][] onD, double[][] onNeighbour, double delta, double beta) {
        int n = Math.min(onD.length, onNeighbour.length);
        int half = n / 2;
        int m = onD[0].length;
        double[][] selD = Arrays.copyOfRange(onD, 0, half);
        double[][] selN = Arrays.copyOfRange(onNeighbour, 0, half);
        double[][] evalD = Arrays.copyOfRange(onD, half, 2 * half);
        double[][] evalN = Arrays.copyOfRange(onNeighbour, half, 2 * half);
        Binning binning = Binning.of(selD, selN, m == 1 ? BINS_1D : BINS_2D);
        Result forward = direction(binning, selD, selN, evalD, evalN, delta, beta, "D over D'");
        Result backward = direction(binning, selN, selD, evalN, evalD, delta, beta, "D' over D");
        Result best = forward.epsilonLowerBound() >= backward.epsilonLowerBound() ? forward : backward;
        return new Result(best.epsilonLowerBound(), best.event(), best.countD(), best.countNeighbour(), n);
    }

    private static Result direction(Binning binning, double[][] selP, double[][] selQ, double[][] evalP,
            double[][] evalQ, double delta, double beta, String label) {
        long[] cp = binning.counts(selP);
        long[] cq = binning.counts(selQ);
        List<boolean[]> events = candidateEvents(binning, cp, cq);
        boolean[] bestEvent = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (boolean[] event : events) {
            double score = lowerBound(count(cp, event), count(cq, event), selP.length, delta, beta / 4);
            if (score > bestScore) {
                bestScore = score;
                bestEvent = event;
            }
        }
        long[] ep = binning.counts(evalP);
        long[] eq = binning.counts(evalQ);
        long k1 = count(ep, bestEvent);
        long k2 = count(eq, bestEvent);
        double lb = lowerBound(k1, k2, evalP.length, delta, beta / 4);
        int size = 0;
        for (boolean b : bestEvent) {
            size += b ? 1 : 0;
        }
        return new Result(Math.max(0, lb), label + ", " + size + " of " + bestEvent.length + " bins", k1, k2,
                evalP.length);
    }

    /** ln((p_lo − δ)/q_hi) with one-sided Clopper–Pearson bounds at level alpha each (−∞ if p_lo ≤ δ). */
    static double lowerBound(long k1, long k2, long n, double delta, double alpha) {
        double pLo = ClopperPearson.lower(k1, n, alpha);
        double qHi = ClopperPearson.upper(k2, n, alpha);
        if (pLo - delta <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        return Math.log((pLo - delta) / qHi);
    }

    private static long count(long[] counts, boolean[] event) {
        long s = 0;
        for (int i = 0; i < counts.length; i++) {
            if (event[i]) {
                s += counts[i];
            }
        }
        return s;
    }

    private static List<boolean[]> candidateEvents(Binning binning, long[] cp, long[] cq) {
        int bins = cp.length;
        List<boolean[]> events = new ArrayList<>();
        if (binning.dimensions() == 1) {
            for (int t = 1; t < bins; t++) {
                boolean[] above = new boolean[bins];
                boolean[] below = new boolean[bins];
                for (int i = 0; i < bins; i++) {
                    above[i] = i >= t;
                    below[i] = i < t;
                }
                events.add(above);
                events.add(below);
            }
        }
        Integer[] order = new Integer[bins];
        for (int i = 0; i < bins; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -(cp[i] + 0.5) / (cq[i] + 0.5)));
        boolean[] prefix = new boolean[bins];
        for (int j = 0; j < bins - 1; j++) {
            prefix[order[j]] = true;
            events.add(prefix.clone());
        }
        return events;
    }

    /** Per-coordinate bin edges from pooled quantiles; a sample's bin is the product index. */
    private record Binning(double[][] edges) {

        static Binning of(double[][] a, double[][] b, int binsPerCoordinate) {
            int m = a[0].length;
            double[][] edges = new double[m][];
            for (int c = 0; c < m; c++) {
                double[] pooled = new double[a.length + b.length];
                for (int i = 0; i < a.length; i++) {
                    pooled[i] = a[i][c];
                }
                for (int i = 0; i < b.length; i++) {
                    pooled[a.length + i] = b[i][c];
                }
                Arrays.sort(pooled);
                double[] e = new double[binsPerCoordinate - 1];
                for (int j = 1; j < binsPerCoordinate; j++) {
                    e[j - 1] = pooled[(int) ((long) j * (pooled.length - 1) / binsPerCoordinate)];
                }
                edges[c] = Arrays.stream(e).distinct().toArray();
            }
            return new Binning(edges);
        }

        int dimensions() {
            return edges.length;
        }

        int size() {
            int s = 1;
            for (double[] e : edges) {
                s *= e.length + 1;
            }
            return s;
        }

        long[] counts(double[][] samples) {
            long[] counts = new long[size()];
            for (double[] x : samples) {
                int index = 0;
                for (int c = 0; c < edges.length; c++) {
                    int pos = Arrays.binarySearch(edges[c], x[c]);
                    int bin = pos >= 0 ? pos : -pos - 1;
                    index = index * (edges[c].length + 1) + bin;
                }
                counts[index]++;
            }
            return counts;
        }
    }
}
