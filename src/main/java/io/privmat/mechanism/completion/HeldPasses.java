package io.privmat.mechanism.completion;

import java.util.stream.IntStream;

/**
 * The per-user passes over ratings held in memory ({@link RatingsMatrix}): the users' state is one
 * value per held rating; users are split into a few chunks summed in parallel, each into its own
 * {@link ExactSums}, merged exactly — the result is the same integers whatever the chunks.
 */
final class HeldPasses implements UserPasses {

    /** Most accumulator entries (16 bytes each) held per chunk beyond the first. */
    private static final long PARALLEL_ENTRIES = 1L << 22;

    private final RatingsMatrix data;
    private final double[] state;

    HeldPasses(RatingsMatrix data) {
        this.data = data;
        this.state = new double[data.ratings()];
    }

    /** The users' state after the passes so far, one value per held rating. */
    double[] state() {
        return state;
    }

    @Override
    public double[] pass(UserStatistic statistic) {
        int parts = statistic.size() <= PARALLEL_ENTRIES ? 4 : 1;
        int[] chunks = data.chunks(parts);
        ExactSums[] sums = new ExactSums[chunks.length - 1];
        int[] items = data.items();
        double[] centred = data.values();
        boolean advances = statistic.advances();
        IntStream.range(0, sums.length).parallel().forEach(c -> {
            ExactSums out = new ExactSums(statistic.size());
            for (int u = chunks[c]; u < chunks[c + 1]; u++) {
                int from = data.start(u);
                int to = data.end(u);
                if (advances) {
                    statistic.advance(items, centred, from, to, state);
                }
                statistic.contribute(items, centred, from, to, state, out);
                out.endUser();
            }
            sums[c] = out;
        });
        ExactSums total = sums.length == 0 ? new ExactSums(statistic.size()) : sums[0];
        for (int c = 1; c < sums.length; c++) {
            total.merge(sums[c]);
        }
        return statistic.finish(total);
    }
}
