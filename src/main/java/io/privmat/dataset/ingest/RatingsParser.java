package io.privmat.dataset.ingest;

import io.privmat.dataset.RatingsSchema;
import io.privmat.dataset.storage.ChunkCodec;
import io.privmat.dataset.storage.DatasetRepository;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * (user, item, rating) triples (CSV or TSV, optional header) for a RATINGS dataset (docs/ratings.md).
 * Every line is checked against the declaration: the item must be in the declared universe, the
 * rating a finite number in [min, max]; a (user, item) pair may appear once. Users get dense ids
 * 0..m−1 in order of first appearance; their labels go to {@code ratings_user} in batches as they
 * appear. Of each user's ratings the first s in upload order are kept and the rest dropped (counted,
 * never looked at: the rule reads positions only). The kept ratings are written in user-id order,
 * one SPARSE record (count, items, ratings) per user, in chunks of about {@code chunkBytes}.
 *
 * <p>Memory: the triples are held until the upload ends (user id, item id, rating and line number:
 * 24 bytes per line, at most {@code maxRatings} lines), plus the user label map (O(m)), a
 * permutation (4 bytes per line) and two int arrays of n items; one chunk at a time is encoded.
 */
final class RatingsParser {

    static final int MAX_LABEL = 1000;
    private static final int LABEL_BATCH = 20_000;
    private static final int BLOCK_BITS = 16;
    private static final int BLOCK = 1 << BLOCK_BITS;

    private final DatasetRepository repository;
    private final UUID datasetId;
    private final RatingsSchema schema;
    private final long maxRatings;

    private final Map<String, Integer> users = new HashMap<>();
    private final List<String> freshLabels = new ArrayList<>();
    private int labelsWritten;

    // The triples in upload order, in blocks of BLOCK entries (no copying as they grow).
    private final List<int[]> userBlocks = new ArrayList<>();
    private final List<int[]> itemBlocks = new ArrayList<>();
    private final List<double[]> ratingBlocks = new ArrayList<>();
    private final List<long[]> lineBlocks = new ArrayList<>();
    private int size;

    private RatingsParser(DatasetRepository repository, UUID datasetId, RatingsSchema schema, long maxRatings) {
        this.repository = repository;
        this.datasetId = datasetId;
        this.schema = schema;
        this.maxRatings = Math.min(maxRatings, Integer.MAX_VALUE - BLOCK);
    }

    /** Parses, validates and stores one upload; returns its shape (m users, n items, |Ω| kept). */
    static UploadStats parse(InputStream in, byte delimiter, @Nullable Boolean header, RatingsSchema schema,
            DatasetRepository repository, UUID datasetId, long chunkBytes, long maxRatings, String format,
            LongSupplier bytesRead) {
        RatingsParser parser = new RatingsParser(repository, datasetId, schema, maxRatings);
        LineReader reader = new LineReader(in, delimiter);
        if (!reader.nextLine()) {
            throw InvalidDataException.whole("the upload is empty");
        }
        if (reader.isHeader(header, 3) && !reader.nextLine()) {
            throw InvalidDataException.whole("the upload has a header but no ratings");
        }
        RatingsSchema.ItemIndex items = schema.itemIndex();
        double min = schema.min();
        double max = schema.max();
        do {
            int fields = reader.countFields();
            if (fields != 3) {
                throw InvalidDataException.at(reader.lineNo, 0, "a rating line must be user,item,rating but has "
                        + fields + " fields");
            }
            reader.nextField();
            String user = reader.fieldString();
            if (user.isEmpty() || user.length() > MAX_LABEL || user.indexOf('\0') >= 0) {
                throw InvalidDataException.at(reader.lineNo, 1, "a user label must have 1–" + MAX_LABEL
                        + " characters (no NUL)");
            }
            reader.nextField();
            int item = items.id(reader.fieldString());
            if (item < 0) {
                throw InvalidDataException.at(reader.lineNo, 2, "item is not in the declared item universe");
            }
            reader.nextField();
            double rating = reader.fieldDouble();
            if (!(rating >= min && rating <= max)) {
                throw InvalidDataException.at(reader.lineNo, 3, "rating outside the declared range [" + min + ", "
                        + max + "]");
            }
            parser.add(user, item, rating, reader.lineNo);
        } while (reader.nextLine());
        parser.flushLabels();
        long kept = parser.store(chunkBytes);
        long dropped = parser.size - kept;
        repository.setDroppedRatings(datasetId, dropped);
        return new UploadStats(parser.users.size(), schema.items(), kept, 0, format, "SPARSE", bytesRead.getAsLong(),
                null);
    }

    private void add(String user, int item, double rating, long line) {
        if (size >= maxRatings) {
            throw InvalidDataException.at(line, 0, "a RATINGS upload may have at most " + maxRatings
                    + " ratings (privmat.ingest.max-ratings)");
        }
        Integer id = users.get(user);
        if (id == null) {
            id = users.size();
            users.put(user, id);
            freshLabels.add(user);
            if (freshLabels.size() == LABEL_BATCH) {
                flushLabels();
            }
        }
        if ((size & (BLOCK - 1)) == 0) {
            userBlocks.add(new int[BLOCK]);
            itemBlocks.add(new int[BLOCK]);
            ratingBlocks.add(new double[BLOCK]);
            lineBlocks.add(new long[BLOCK]);
        }
        int b = size >>> BLOCK_BITS;
        int i = size & (BLOCK - 1);
        userBlocks.get(b)[i] = id;
        itemBlocks.get(b)[i] = item;
        ratingBlocks.get(b)[i] = rating;
        lineBlocks.get(b)[i] = line;
        size++;
    }

    private int user(int k) {
        return userBlocks.get(k >>> BLOCK_BITS)[k & (BLOCK - 1)];
    }

    private int item(int k) {
        return itemBlocks.get(k >>> BLOCK_BITS)[k & (BLOCK - 1)];
    }

    private double rating(int k) {
        return ratingBlocks.get(k >>> BLOCK_BITS)[k & (BLOCK - 1)];
    }

    private long line(int k) {
        return lineBlocks.get(k >>> BLOCK_BITS)[k & (BLOCK - 1)];
    }

    /** Writes the new user labels (ids in order of first appearance) to ratings_user. */
    private void flushLabels() {
        if (freshLabels.isEmpty()) {
            return;
        }
        repository.insertRatingsUsers(datasetId, freshLabels, labelsWritten);
        labelsWritten += freshLabels.size();
        freshLabels.clear();
    }

    /**
     * Groups the triples by user (upload order kept within a user), refuses a repeated (user, item)
     * naming the earliest repeat and its first line, drops each user's ratings beyond s, and writes
     * the kept ones in user-id order. Returns |Ω| kept.
     */
    private long store(long chunkBytes) {
        int m = users.size();
        int[] start = new int[m + 1];
        for (int k = 0; k < size; k++) {
            start[user(k) + 1]++;
        }
        for (int u = 0; u < m; u++) {
            start[u + 1] += start[u];
        }
        int[] next = Arrays.copyOf(start, m);
        int[] order = new int[size];
        for (int k = 0; k < size; k++) {
            order[next[user(k)]++] = k;
        }
        next = null;
        checkDuplicates(m, start, order);
        lineBlocks.clear();
        int cap = schema.perUserCap();
        long kept = 0;
        int chunkNo = 0;
        int u = 0;
        while (u < m) {
            // One chunk: consecutive users up to about chunkBytes (at least one user).
            int first = u;
            long bytes = 0;
            int entries = 0;
            do {
                int k = Math.min(cap, start[u + 1] - start[u]);
                bytes += 4 + 12L * k;
                entries += k;
                u++;
            } while (u < m && bytes + 4 + 12L * Math.min(cap, start[u + 1] - start[u]) <= chunkBytes);
            int rows = u - first;
            int[] pointers = new int[rows + 1];
            int[] chunkItems = new int[entries];
            double[] chunkRatings = new double[entries];
            int at = 0;
            for (int r = 0; r < rows; r++) {
                int from = start[first + r];
                int to = Math.min(start[first + r + 1], from + cap);
                for (int p = from; p < to; p++) {
                    chunkItems[at] = item(order[p]);
                    chunkRatings[at] = rating(order[p]);
                    at++;
                }
                pointers[r + 1] = at;
            }
            repository.insertChunk(datasetId, chunkNo++, first, rows, "SPARSE", entries,
                    ChunkCodec.encodeRows(rows, pointers, chunkItems, chunkRatings));
            kept += entries;
        }
        return kept;
    }

    private void checkDuplicates(int m, int[] start, int[] order) {
        int n = schema.items();
        int[] seenBy = new int[n];
        Arrays.fill(seenBy, -1);
        int[] firstAt = new int[n];
        long repeatLine = Long.MAX_VALUE;
        long firstLine = -1;
        for (int u = 0; u < m; u++) {
            for (int p = start[u]; p < start[u + 1]; p++) {
                int k = order[p];
                int item = item(k);
                if (seenBy[item] == u) {
                    if (line(k) < repeatLine) {
                        repeatLine = line(k);
                        firstLine = line(firstAt[item]);
                    }
                } else {
                    seenBy[item] = u;
                    firstAt[item] = k;
                }
            }
        }
        if (firstLine >= 0) {
            throw InvalidDataException.at(repeatLine, 0, "duplicate (user, item): this user rated this item on line "
                    + firstLine);
        }
    }
}
