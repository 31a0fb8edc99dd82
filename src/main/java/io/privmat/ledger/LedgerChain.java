package io.privmat.ledger;

import io.privmat.privacy.Tracks;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * The hash chain of a dataset's ledger (docs/accounting.md, "Tamper evidence"), recomputed here
 * independently of the database: each entry's hash is the SHA-256 of its canonical bytes, which
 * include the previous entry's hash. The database computes the same bytes when it inserts an entry
 * (db-migrations/V031__chain_ledger_entry.sql); a verification that passes means both agree.
 *
 * <p>A {@link Check} takes a dataset's entries in id order, one at a time (memory does not grow with
 * the ledger), and keeps the first entry that breaks the chain, the head, and the sums of the entries
 * on each track.
 */
public final class LedgerChain {

    private static final byte[] TAG = "privmat-ledger-entry-v1".getBytes(StandardCharsets.US_ASCII);
    /** The tag of an entry with a period (db-migrations/V034__renewing_stream_budgets.sql): a 15th field. */
    private static final byte[] TAG_V2 = "privmat-ledger-entry-v2".getBytes(StandardCharsets.US_ASCII);
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final HexFormat HEX = HexFormat.of();

    private LedgerChain() {}

    /** An entry as stored, with its stored chain columns. */
    public record Chained(LedgerEntry entry, byte @Nullable [] prevHash, byte @Nullable [] entryHash) {}

    /**
     * The canonical bytes of an entry chained onto {@code prev} (null for the first entry): v1's 14
     * fields for an entry without a period, v2's tag and the period as a 15th field for one with.
     */
    public static byte[] canonical(byte @Nullable [] prev, LedgerEntry e) {
        String[] v1 = {prev == null ? "" : HEX.formatHex(prev), Long.toString(e.id()), e.datasetId().toString(),
            e.jobId().toString(), e.type().name(), e.kind(), e.mechanism(), e.parameters(), e.loss(), decimal(e.rho()),
            decimal(e.epsilon()), decimal(e.delta()), e.caller(), TIME.format(e.createdAt())};
        String[] fields = v1;
        byte[] tag = TAG;
        if (e.period() != null) {
            fields = Arrays.copyOf(v1, v1.length + 1);
            fields[v1.length] = Long.toString(e.period());
            tag = TAG_V2;
        }
        int size = tag.length;
        byte[][] encoded = new byte[fields.length][];
        for (int i = 0; i < fields.length; i++) {
            encoded[i] = fields[i].getBytes(StandardCharsets.UTF_8);
            size += 4 + encoded[i].length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(tag);
        for (byte[] f : encoded) {
            out.putInt(f.length).put(f);
        }
        return out.array();
    }

    /** The entry's hash: SHA-256 of its canonical bytes. */
    public static byte[] hash(byte @Nullable [] prev, LedgerEntry e) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(canonical(prev, e));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("every Java platform has SHA-256", ex);
        }
    }

    /** A decimal as PostgreSQL prints {@code trim_scale(x)}: plain notation, no trailing zeros. */
    static String decimal(BigDecimal x) {
        return x.stripTrailingZeros().toPlainString();
    }

    public static String hex(byte[] hash) {
        return HEX.formatHex(hash);
    }

    /** Parses a 64-character hexadecimal SHA-256, or returns null if it is not one. */
    public static byte @Nullable [] parseHash(String text) {
        if (text.length() != 64) {
            return null;
        }
        try {
            return HEX.parseHex(text.toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The outcome of a verification. {@code head} is the stored hash of the last entry. */
    public record Result(boolean ok, long entries, @Nullable String head, @Nullable Long headEntry,
            @Nullable Long firstBadEntry, @Nullable String reason, boolean totalsChecked) {}

    private static boolean same(BigDecimal[] sums, Tracks t) {
        return sums[0].compareTo(t.rho()) == 0 && sums[1].compareTo(t.epsilon()) == 0 && sums[2].compareTo(t.delta()) == 0;
    }

    /** Checks a dataset's entries fed in id order. */
    public static final class Check {

        private final byte @Nullable [] exportedHead;
        private final @Nullable Long period;
        private byte @Nullable [] expectedPrev;
        private boolean exportedHeadSeen;
        private long entries;
        private @Nullable Long headEntry;
        private @Nullable Long firstBad;
        private @Nullable String reason;
        // rho, epsilon, delta: COMMIT sums, and RESERVE minus COMMIT and REFUND sums (may go negative
        // in an edited ledger, so plain decimals rather than Tracks).
        private final BigDecimal[] committed = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
        private final BigDecimal[] reserved = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};

        /** @param exportedHead a head exported earlier that the chain must still contain, or null */
        public Check(byte @Nullable [] exportedHead) {
            this(exportedHead, null);
        }

        /**
         * @param exportedHead a head exported earlier that the chain must still contain, or null
         * @param period the account's current period when its budget renews per period: the sums
         *     compared with its totals are of that period's entries only (null: of the entries
         *     without a period, i.e. all of a budget that does not renew)
         */
        public Check(byte @Nullable [] exportedHead, @Nullable Long period) {
            this.exportedHead = exportedHead;
            this.period = period;
        }

        public void accept(Chained c) {
            LedgerEntry e = c.entry();
            entries++;
            headEntry = e.id();
            BigDecimal[] amount = {e.rho(), e.epsilon(), e.delta()};
            for (int t = 0; t < 3 && java.util.Objects.equals(e.period(), period); t++) {
                switch (e.type()) {
                    case RESERVE -> reserved[t] = reserved[t].add(amount[t]);
                    case COMMIT -> {
                        committed[t] = committed[t].add(amount[t]);
                        reserved[t] = reserved[t].subtract(amount[t]);
                    }
                    case REFUND -> reserved[t] = reserved[t].subtract(amount[t]);
                }
            }
            if (firstBad != null) {
                expectedPrev = c.entryHash();
                return;
            }
            if (!Arrays.equals(c.prevHash(), expectedPrev)) {
                fail(e.id(), expectedPrev == null
                        ? "the first entry names a previous entry: entries before it were deleted"
                        : "its previous-entry hash is not the hash of the entry before it: an entry was deleted, "
                                + "inserted or moved before it, or its link was edited");
            } else if (c.entryHash() == null || !Arrays.equals(hash(c.prevHash(), e), c.entryHash())) {
                fail(e.id(), "its content does not match its hash: the entry was edited");
            } else if (exportedHead != null && Arrays.equals(exportedHead, c.entryHash())) {
                exportedHeadSeen = true;
            }
            expectedPrev = c.entryHash();
        }

        private void fail(long id, String why) {
            firstBad = id;
            reason = "entry " + id + ": " + why;
        }

        /**
         * The verdict, with the account's totals compared to the entries' sums when the account still
         * exists ({@code committed}, {@code reserved}; null after the dataset was deleted).
         */
        public Result result(@Nullable Tracks accountCommitted, @Nullable Tracks accountReserved) {
            String why = reason;
            if (why == null && accountCommitted != null && accountReserved != null
                    && !(same(committed, accountCommitted) && same(reserved, accountReserved))) {
                why = "the account's committed and reserved totals are not the sums of its entries";
            }
            if (why == null && exportedHead != null && !exportedHeadSeen) {
                why = "the exported head is not in the chain: the ledger was rewritten or cut back since it was exported";
            }
            return new Result(why == null, entries, expectedPrev == null ? null : hex(expectedPrev), headEntry, firstBad,
                    why, accountCommitted != null);
        }
    }
}
