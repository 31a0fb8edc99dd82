package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.InMemoryRatings;
import io.privmat.mechanism.catalog.RatingsDomain;
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

        /**
         * The held-out entries split in two (each user's first half, then the rest), over the same
         * training ratings: a validation split for tuning and a test split for reporting, without a
         * second draw of the data (which at the paper's 500 000 users would double the memory).
         */
        Split[] halves() {
            int m = users();
            Split[] out = new Split[2];
            for (int h = 0; h < 2; h++) {
                int[] offsets = new int[m + 1];
                int total = 0;
                for (int u = 0; u < m; u++) {
                    int c = testOffsets[u + 1] - testOffsets[u];
                    total += h == 0 ? c / 2 : c - c / 2;
                }
                int[] items = new int[total];
                double[] values = new double[total];
                int at = 0;
                for (int u = 0; u < m; u++) {
                    int mid = testOffsets[u] + (testOffsets[u + 1] - testOffsets[u]) / 2;
                    int from = h == 0 ? testOffsets[u] : mid;
                    int to = h == 0 ? mid : testOffsets[u + 1];
                    for (int p = from; p < to; p++) {
                        items[at] = testItems[p];
                        values[at++] = testValues[p];
                    }
                    offsets[u + 1] = at;
                }
                out[h] = new Split(domain, train, offsets, items, values);
            }
            return out;
        }

        /** RMSE of predicting the mean of all training ratings everywhere (non-private: a statistic of the data). */
        double globalMeanRmse() {
            double[] sum = {0};
            long[] count = {0};
            train.forEachUser((user, items, ratings, n) -> {
                for (int k = 0; k < n; k++) {
                    sum[0] += ratings[k];
                }
                count[0] += n;
            });
            double mean = sum[0] / count[0];
            double s = 0;
            for (double v : testValues) {
                s += (v - mean) * (v - mean);
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
        int[] perm = identity(n);
        for (int i = 0; i < m; i++) {
            users[i] = i;
            sampleFirst(perm, perUser + testPerUser, random);
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

    /**
     * A low-rank ratings matrix on a 1..5 scale: y_ij = clamp(3.5 + ½·aᵢ·b_j, 1, 5) with aᵢ, b_j in
     * ℝ^rank of independent standard normal entries (so the entries spread by ≈ 0.87 around 3.5 for
     * rank 3, about 8% clamped at 5, none at 1); every user rates a uniform number of items in
     * [{@code minPerUser}, {@code cap}] chosen uniformly, and {@code testPerUser} further items are held out.
     */
    static Split lowRank(int m, int n, int rank, int minPerUser, int cap, int testPerUser, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] a = new double[m * rank];
        double[] b = new double[n * rank];
        for (int i = 0; i < a.length; i++) {
            a[i] = random.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = random.nextGaussian();
        }
        int[] users = new int[m];
        int[] offsets = new int[m + 1];
        int[] counts = new int[m];
        long total = 0;
        for (int i = 0; i < m; i++) {
            counts[i] = minPerUser + random.nextInt(cap - minPerUser + 1);
            total += counts[i];
        }
        int[] items = new int[(int) total];
        double[] ratings = new double[(int) total];
        int[] testOffsets = new int[m + 1];
        int[] testItems = new int[m * testPerUser];
        double[] testValues = new double[m * testPerUser];
        int[] perm = identity(n);
        int at = 0;
        for (int i = 0; i < m; i++) {
            users[i] = i;
            int c = counts[i];
            sampleFirst(perm, c + testPerUser, random);
            for (int k = 0; k < c; k++) {
                items[at + k] = perm[k];
                ratings[at + k] = lowRankRating(a, b, i, perm[k], rank);
            }
            at += c;
            offsets[i + 1] = at;
            for (int k = 0; k < testPerUser; k++) {
                testItems[i * testPerUser + k] = perm[c + k];
                testValues[i * testPerUser + k] = lowRankRating(a, b, i, perm[c + k], rank);
            }
            testOffsets[i + 1] = (i + 1) * testPerUser;
        }
        return new Split(new RatingsDomain(n, 1, 5, cap), new InMemoryRatings(n, users, offsets, items, ratings),
                testOffsets, testItems, testValues);
    }

    /** 0, 1, …, n − 1. */
    static int[] identity(int n) {
        int[] perm = new int[n];
        for (int j = 0; j < n; j++) {
            perm[j] = j;
        }
        return perm;
    }

    /** Partial Fisher–Yates: afterwards perm[0..count) is a uniform sample (without replacement) of perm. */
    static void sampleFirst(int[] perm, int count, SplittableRandom random) {
        for (int k = 0; k < count; k++) {
            int swap = k + random.nextInt(perm.length - k);
            int t = perm[k];
            perm[k] = perm[swap];
            perm[swap] = t;
        }
    }

    private static double lowRankRating(double[] a, double[] b, int i, int j, int rank) {
        double s = 0;
        for (int k = 0; k < rank; k++) {
            s += a[i * rank + k] * b[j * rank + k];
        }
        return Math.max(1, Math.min(5, 3.5 + 0.5 * s));
    }
}
