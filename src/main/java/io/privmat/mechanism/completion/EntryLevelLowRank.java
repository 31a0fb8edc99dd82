package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsSource;
import io.privmat.mechanism.catalog.RowStream;
import io.privmat.mechanism.lowrank.FactorizationFacts;
import io.privmat.mechanism.lowrank.HardtRothMechanism;
import io.privmat.mechanism.lowrank.RandomizedResponseMechanism;
import io.privmat.mechanism.noise.NoiseSource;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * Low-rank approximation of a ratings matrix under the RATING relation (one observed rating changes
 * within [lo, hi]; Ω, hence m, public): Hardt–Roth (range finder + pruning + projection) and
 * randomized response, reusing {@link HardtRothMechanism} and {@link RandomizedResponseMechanism}.
 *
 * <p><b>The matrix.</b> A is m × n with A_ij = y_ij − c (centred rating) on Ω and 0 off Ω (public
 * zeros, not data). A rating change moves one entry by at most r = hi − lo.
 *
 * <p><b>Sensitivity, derived.</b> The row-level mechanisms are proved for neighbours whose matrices
 * differ in one row by a vector of L2 norm at most 2B (replace one row of norm ≤ B). An entry change
 * c·e_i e_jᵀ with |c| ≤ r is such a row change with ‖v‖ = |c| ≤ r, so both mechanisms are DP under
 * RATING when called with B = r/2; their proofs use nothing else about the rows (randomized
 * response: ‖ΔA‖_F ≤ 2B; Hardt–Roth: vᵀΩ for the range finder, Q̃_{i,:}ᵀvᵀ for the projection, both
 * linear in v). No row-norm bound on A is needed, and none is assumed.
 *
 * <p><b>Orientation.</b> Entry-level neighbours are symmetric under transposition (an entry of Aᵀ
 * changes), so Hardt–Roth may run on A or on Aᵀ. Its range finder works on the row side and its
 * projection noise is small when the row side's basis is incoherent and the column side is long;
 * we give the range finder the short side: rows = users when m ≤ n, rows = items (Aᵀ) when m &gt; n
 * (the orientation of Hardt–Roth's own Netflix example). The choice depends on m and n only,
 * public under RATING. Randomized response adds the same noise to every entry in either orientation.
 */
public final class EntryLevelLowRank {

    /** Which side of the ratings matrix became the rows of the mechanism's matrix. */
    public enum Orientation {
        /** A itself: users are rows (m × n). */
        USERS_AS_ROWS,
        /** Aᵀ: items are rows (n × m). */
        ITEMS_AS_ROWS
    }

    /**
     * A factorisation in the mechanism's orientation, plus the orientation: in USERS_AS_ROWS
     * A ≈ u·diag(s)·vᵀ; in ITEMS_AS_ROWS Aᵀ ≈ u·diag(s)·vᵀ, i.e. A ≈ v·diag(s)·uᵀ.
     */
    public record OrientedFactorization(Orientation orientation, Factorization factors, int users, int items) {

        /** The rank-k approximation of the centred entry (user, item). */
        public double centredEntry(int user, int item) {
            Factorization f = factors;
            int k = f.k();
            double[] u = f.u();
            if (u == null) {
                throw new IllegalStateException("no left factor");
            }
            int row = orientation == Orientation.USERS_AS_ROWS ? user : item;
            int col = orientation == Orientation.USERS_AS_ROWS ? item : user;
            double s = 0;
            for (int j = 0; j < k; j++) {
                s += u[row * k + j] * f.s()[j] * f.v()[col * k + j];
            }
            return s;
        }

        /**
         * The same release as a factorisation of A itself, users × items: u (m × k) one row per user,
         * v (n × k) one row per item, A ≈ u·diag(s)·vᵀ, with the orientation added to its facts. In
         * ITEMS_AS_ROWS the factors swap sides (post-processing): v is then the range finder's side
         * (Hardt–Roth's Q̃·U_B, not orthonormal when entries were pruned) and u has orthonormal columns.
         */
        public Factorization usersByItems() {
            Facts facts = factors.facts().with(FactorizationFacts.ORIENTATION, orientation.name());
            if (orientation == Orientation.USERS_AS_ROWS) {
                return new Factorization(factors.u(), factors.s(), factors.v(), users, items, factors.k(), facts);
            }
            double[] itemSide = factors.u();
            if (itemSide == null) {
                throw new IllegalStateException("no item-side factor");
            }
            return new Factorization(factors.v(), factors.s(), itemSide, users, items, factors.k(), facts);
        }
    }

    /** Largest m·n the dense centred matrix may have (8 bytes each): 50 M entries, 400 MB. */
    public static final long MAX_ENTRIES = 50_000_000L;

    private final int users;
    private final RatingsDomain domain;
    private final Orientation orientation;
    private final @Nullable HardtRothMechanism hardtRoth;
    private final @Nullable RandomizedResponseMechanism randomizedResponse;

    private EntryLevelLowRank(int users, RatingsDomain domain, Orientation orientation, @Nullable HardtRothMechanism hardtRoth,
            @Nullable RandomizedResponseMechanism randomizedResponse) {
        if ((long) users * domain.items() > MAX_ENTRIES) {
            throw new IllegalArgumentException("users·items exceeds " + MAX_ENTRIES);
        }
        this.users = users;
        this.domain = domain;
        this.orientation = orientation;
        this.hardtRoth = hardtRoth;
        this.randomizedResponse = randomizedResponse;
    }

    /** Rows = the short side (ties: users). A function of the public m and n only. */
    public static Orientation shortSideRows(int users, int items) {
        return users <= items ? Orientation.USERS_AS_ROWS : Orientation.ITEMS_AS_ROWS;
    }

    /** The row bound B = (hi − lo)/2 that makes the row-level proofs cover one rating change. */
    public static double rowBoundFor(RatingsDomain domain) {
        return domain.entryChange() / 2;
    }

    /**
     * Hardt–Roth under RATING, range finder on the short side. {@code users} is the public m (Ω is
     * public under RATING); {@code coherence} the public μ₀ of the pruning threshold
     * τ = √(4μ₀ℓ·ln(rows)/rows) on the oriented matrix's rows (no pruning when τ ≥ 1).
     */
    public static EntryLevelLowRank hardtRoth(int users, RatingsDomain domain, int k, int oversampling,
            double coherence, BigDecimal epsilon, BigDecimal delta) {
        Orientation o = shortSideRows(users, domain.items());
        int rows = o == Orientation.USERS_AS_ROWS ? users : domain.items();
        int cols = o == Orientation.USERS_AS_ROWS ? domain.items() : users;
        return new EntryLevelLowRank(users, domain, o, HardtRothMechanism.of(rows, cols, k, oversampling,
                rowBoundFor(domain), coherence, epsilon, delta), null);
    }

    /** Randomized response under RATING, (ε, δ) by the analytic Gaussian, users as rows. */
    public static EntryLevelLowRank randomizedResponse(int users, RatingsDomain domain, int k, double epsilon,
            double delta) {
        return new EntryLevelLowRank(users, domain, Orientation.USERS_AS_ROWS, null,
                RandomizedResponseMechanism.forApproxDp(users, domain.items(), k, rowBoundFor(domain), epsilon, delta));
    }

    /** Randomized response under RATING, ρ-zCDP, users as rows. */
    public static EntryLevelLowRank randomizedResponseForRho(int users, RatingsDomain domain, int k, double rho) {
        return new EntryLevelLowRank(users, domain, Orientation.USERS_AS_ROWS, null,
                RandomizedResponseMechanism.forRho(users, domain.items(), k, rowBoundFor(domain), rho));
    }

    /**
     * The same mechanism (same noise, same cost) with the released singular values shrunk by their
     * known noise level (Gavish–Donoho; post-processing, see the low-rank mechanisms).
     */
    public EntryLevelLowRank withShrinkage() {
        HardtRothMechanism hr = hardtRoth;
        RandomizedResponseMechanism rr = randomizedResponse;
        return new EntryLevelLowRank(users, domain, orientation, hr == null ? null : hr.withShrinkage(),
                rr == null ? null : rr.withShrinkage());
    }

    public Orientation orientation() {
        return orientation;
    }

    /** The Hardt–Roth mechanism (its costs: approxDp, approxZcdp), or null for randomized response. */
    public @Nullable HardtRothMechanism hardtRothMechanism() {
        return hardtRoth;
    }

    /** The randomized-response mechanism (its cost: privacyLoss), or null for Hardt–Roth. */
    public @Nullable RandomizedResponseMechanism randomizedResponseMechanism() {
        return randomizedResponse;
    }

    /**
     * Reads the source once into a dense centred m × n matrix, then runs the mechanism (which makes
     * its own passes over that matrix).
     *
     * @throws IllegalArgumentException if the source does not hold the declared number of users
     */
    public OrientedFactorization release(RatingsSource source, NoiseSource random) {
        Dense dense = Dense.load(source, domain);
        if (dense.users != users) {
            throw new IllegalArgumentException("the source holds " + dense.users + " users, " + users + " declared");
        }
        HardtRothMechanism hr = hardtRoth;
        RandomizedResponseMechanism rr = randomizedResponse;
        Factorization f = hr != null ? hr.release(dense.stream(orientation), random)
                : java.util.Objects.requireNonNull(rr).release(dense.stream(orientation), random);
        return new OrientedFactorization(orientation, f, users, domain.items());
    }

    /**
     * The statistic both mechanisms read: the validated, centred ratings as a dense m × n matrix,
     * row-major, users as rows, zeros off Ω (for the contract tests' sensitivity check; never released).
     */
    public static double[] centredMatrix(RatingsSource source, RatingsDomain domain) {
        return Dense.load(source, domain).a();
    }

    /** The validated, centred ratings as a dense m × n matrix (zeros off Ω). */
    private record Dense(int users, int items, double[] a) {

        static Dense load(RatingsSource source, RatingsDomain domain) {
            RatingsMatrix data = RatingsMatrix.load(source, domain);
            int m = data.users();
            int n = domain.items();
            if ((long) m * n > MAX_ENTRIES) {
                throw new IllegalArgumentException("users·items exceeds " + MAX_ENTRIES);
            }
            double[] a = new double[m * n];
            for (int u = 0; u < m; u++) {
                for (int p = data.start(u); p < data.end(u); p++) {
                    a[u * n + data.items()[p]] = data.values()[p];
                }
            }
            return new Dense(m, n, a);
        }

        RowStream stream(Orientation o) {
            int block = 1024;
            if (o == Orientation.USERS_AS_ROWS) {
                return visitor -> {
                    for (int from = 0; from < users; from += block) {
                        int count = Math.min(block, users - from);
                        double[] rows = new double[count * items];
                        System.arraycopy(a, from * items, rows, 0, count * items);
                        visitor.block(rows, count, from);
                    }
                };
            }
            return visitor -> {
                for (int from = 0; from < items; from += block) {
                    int count = Math.min(block, items - from);
                    double[] rows = new double[count * users];
                    for (int r = 0; r < count; r++) {
                        for (int u = 0; u < users; u++) {
                            rows[r * users + u] = a[u * items + from + r];
                        }
                    }
                    visitor.block(rows, count, from);
                }
            };
        }
    }
}
