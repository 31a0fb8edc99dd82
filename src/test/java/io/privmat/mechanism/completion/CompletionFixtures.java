package io.privmat.mechanism.completion;

import java.util.SplittableRandom;

/** Synthetic ratings for the completion tests and benchmarks (data randomness only, never DP noise). */
final class CompletionFixtures {

    private CompletionFixtures() {}

    /**
     * Training ratings plus held-out test entries (disjoint from the training items of the same user).
     *
     * @param truth the centred true value at each test entry
     */
    record Split(RatingsDomain domain, InMemoryRatings train, int[] testOffsets, int[] testItems, double[] testValues) {

        int users() {
            return train.users();
        }

        /** Test RMSE of a model's completed rows (rating scale) against the held-out entries. */
        double rmse(CompletionModel model) {
            double[] sum = {0};
            long[] count = {0};
            int[] index = {0};
            model.predictAll(train, (user, row) -> {
                int u = index[0]++;
                for (int p = testOffsets[u]; p < testOffsets[u + 1]; p++) {
                    double e = row[testItems[p]] - testValues[p];
                    sum[0] += e * e;
                    count[0]++;
                }
            });
            return Math.sqrt(sum[0] / count[0]);
        }

        /**
         * RMSE of predicting each item's mean over the observed training ratings (a non-private
         * reference: the per-item mean is itself a statistic of the data).
         */
        double itemMeanRmse() {
            double[] sum = new double[domain.items()];
            long[] count = new long[domain.items()];
            train.forEachUser((user, items, ratings, n) -> {
                for (int k = 0; k < n; k++) {
                    sum[items[k]] += ratings[k];
                    count[items[k]]++;
                }
            });
            double s = 0;
            for (int p = 0; p < testValues.length; p++) {
                int j = testItems[p];
                double mean = count[j] == 0 ? domain.centre() : sum[j] / count[j];
                s += (testValues[p] - mean) * (testValues[p] - mean);
            }
            return Math.sqrt(s / testValues.length);
        }

        /** RMSE of predicting the midpoint everywhere. */
        double trivialRmse() {
            double c = domain.centre();
            double s = 0;
            for (double v : testValues) {
                s += (v - c) * (v - c);
            }
            return Math.sqrt(s / testValues.length);
        }
    }

    /**
     * Jain–Thakkar–Thakurta's synthetic protocol: Y = u·vᵀ with u_i, v_j uniform in [−1, 1] (entries
     * in [−1, 1]), each user rates {@code perUser} items chosen uniformly without replacement, and
     * {@code testPerUser} further items are held out.
     */
    static Split rankOne(int m, int n, int perUser, int testPerUser, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] u = new double[m];
        double[] v = new double[n];
        for (int i = 0; i < m; i++) {
            u[i] = 2 * random.nextDouble() - 1;
        }
        for (int j = 0; j < n; j++) {
            v[j] = 2 * random.nextDouble() - 1;
        }
        int[] users = new int[m];
        int[] offsets = new int[m + 1];
        int[] items = new int[m * perUser];
        double[] ratings = new double[m * perUser];
        int[] testOffsets = new int[m + 1];
        int[] testItems = new int[m * testPerUser];
        double[] testValues = new double[m * testPerUser];
        int[] perm = new int[n];
        for (int j = 0; j < n; j++) {
            perm[j] = j;
        }
        for (int i = 0; i < m; i++) {
            users[i] = i;
            // Partial Fisher–Yates: the first perUser + testPerUser entries are a uniform sample.
            for (int k = 0; k < perUser + testPerUser; k++) {
                int swap = k + random.nextInt(n - k);
                int t = perm[k];
                perm[k] = perm[swap];
                perm[swap] = t;
            }
            for (int k = 0; k < perUser; k++) {
                items[i * perUser + k] = perm[k];
                ratings[i * perUser + k] = u[i] * v[perm[k]];
            }
            for (int k = 0; k < testPerUser; k++) {
                int j = perm[perUser + k];
                testItems[i * testPerUser + k] = j;
                testValues[i * testPerUser + k] = u[i] * v[j];
            }
            offsets[i + 1] = (i + 1) * perUser;
            testOffsets[i + 1] = (i + 1) * testPerUser;
        }
        return new Split(new RatingsDomain(n, -1, 1, perUser), new InMemoryRatings(n, users, offsets, items, ratings),
                testOffsets, testItems, testValues);
    }
}
