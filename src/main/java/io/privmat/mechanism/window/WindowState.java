package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.mechanism.catalog.WindowParameters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything a stream needs to continue after a restart, as plain arrays: what the service
 * persists. It never needs the rows again.
 *
 * <p>Two kinds of slots, each a packed symmetric matrix ({@link WindowParameters#packedSize()}
 * doubles, upper triangle row by row) under a {@code long} key:
 * <ul>
 *   <li>{@link #secret()}: exact (un-noised) sums that future releases still need — private data,
 *       to be protected like the rows themselves and never shown;</li>
 *   <li>{@link #published()}: released values, or post-processing of released values, that future
 *       window answers need — public.</li>
 * </ul>
 * A slot's content never changes once written: a key, once present, always maps to the same
 * array, so a store can persist a step by inserting the keys {@link #changes added} and deleting
 * those removed. The open block ({@link #openBlock()}, exact, private) changes with every append.
 *
 * <p>Keys per mechanism: independent blocks ({@link BlockWindowMechanism}) — published: block index →
 * noisy block. Dyadic tree ({@link DyadicTreeWindowMechanism}) — published: node id → node estimate;
 * secret: node id → exact sum of a completed left child whose parent is still open. Toeplitz
 * factorisation ({@link FactorizationWindowMechanism}) — published: block index → decoded block x̂;
 * secret: block index → exact block Gram (the last p − 1). Node id = (index &lt;&lt; 6) | level.
 *
 * @param mechanism the mechanism this state belongs to
 * @param d the dimension
 * @param completedBlocks blocks released so far (the next block's index)
 * @param openRows rows in the open block (private under {@link BlockRule#TIME})
 * @param openBlock exact packed Gram of the open block
 * @param secret exact sums, by key (unmodifiable, sorted)
 * @param published released values, by key (unmodifiable, sorted)
 */
public record WindowState(WindowMechanismKind mechanism, int d, long completedBlocks, long openRows, double[] openBlock,
        SortedMap<Long, double[]> secret, SortedMap<Long, double[]> published) {

    public WindowState {
        int size = Packed.size(d);
        if (completedBlocks < 0 || openRows < 0) {
            throw new IllegalArgumentException("counters must be >= 0");
        }
        if (openBlock.length != size) {
            throw new IllegalArgumentException("the open block must have " + size + " entries");
        }
        secret = Collections.unmodifiableSortedMap(checked(new TreeMap<>(secret), size));
        published = Collections.unmodifiableSortedMap(checked(new TreeMap<>(published), size));
    }

    private static TreeMap<Long, double[]> checked(TreeMap<Long, double[]> slots, int size) {
        for (Map.Entry<Long, double[]> e : slots.entrySet()) {
            if (e.getValue().length != size) {
                throw new IllegalArgumentException("slot " + e.getKey() + " must have " + size + " entries");
            }
        }
        return slots;
    }

    /** The state of a new stream: nothing released, an empty open block. */
    static WindowState initial(WindowMechanismKind mechanism, int d) {
        return new WindowState(mechanism, d, 0, 0, new double[Packed.size(d)], new TreeMap<>(), new TreeMap<>());
    }

    /** Number of packed matrices held (open block included). */
    public int matrices() {
        return 1 + secret.size() + published.size();
    }

    /** Doubles held: {@link #matrices()}·d(d+1)/2. */
    public long doubles() {
        return (long) matrices() * openBlock.length;
    }

    /**
     * The same state with another open block (the slots are shared: they are immutable). A service
     * that persists a mechanism's slots without the open block (the block is shared by several
     * mechanisms on one stream, {@link StreamBlocks}) rebuilds the state to release with this.
     *
     * @param rows the block's row count (private under TIME)
     * @param packed the block's exact packed Gram (secret)
     */
    public WindowState withOpenBlock(long rows, double[] packed) {
        return new WindowState(mechanism, d, completedBlocks, rows, packed, secret, published);
    }

    /**
     * What changed from {@code before} to this state: slot keys to insert (with their arrays) and to
     * delete, per kind. The counters and the open block are always rewritten.
     */
    public Changes changes(WindowState before) {
        return new Changes(added(before.secret, secret), removed(before.secret, secret), added(before.published, published),
                removed(before.published, published));
    }

    private static List<Long> added(SortedMap<Long, double[]> before, SortedMap<Long, double[]> after) {
        List<Long> out = new ArrayList<>();
        for (Long k : after.keySet()) {
            if (!before.containsKey(k)) {
                out.add(k);
            }
        }
        return out;
    }

    private static List<Long> removed(SortedMap<Long, double[]> before, SortedMap<Long, double[]> after) {
        List<Long> out = new ArrayList<>();
        for (Long k : before.keySet()) {
            if (!after.containsKey(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** Slot keys added and removed between two states. */
    public record Changes(List<Long> secretAdded, List<Long> secretRemoved, List<Long> publishedAdded,
            List<Long> publishedRemoved) {}

    /** Tree node id: (index &lt;&lt; 6) | level. */
    static long nodeId(int level, long index) {
        return (index << 6) | level;
    }
}
