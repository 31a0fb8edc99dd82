package io.privmat.dataset.ingest;

import io.privmat.dataset.storage.ChunkCodec;
import io.privmat.dataset.storage.DatasetRepository;
import java.io.InputStream;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Undirected weighted edge lists {@code u,v[,w]} (CSV or TSV). If the owner declared the vertex
 * universe at creation, labels must belong to it and keep its ids (V is the declared count, whatever
 * the edges touch); otherwise labels are arbitrary strings mapped to dense ids 0..V−1 in order of
 * first appearance; w defaults to 1 and must lie in [0, 1];
 * self-loops and repeated edges (in either orientation) are refused. Bounded memory: labels are
 * resolved per batch against {@code graph_vertex}, and duplicates are found by PostgreSQL over a
 * staged copy of the edges.
 */
final class EdgeListParser {

    static final int MAX_LABEL = 1000;
    private static final int BATCH = 20_000;

    private final DatasetRepository repository;
    private final UUID datasetId;
    private final int edgesPerChunk;
    private int vertices;
    private long edges;
    private int chunkNo;

    private final String[] us = new String[BATCH];
    private final String[] vs = new String[BATCH];
    private final double[] ws = new double[BATCH];
    private final long[] lines = new long[BATCH];
    private int pending;

    private int[] chunkU;
    private int[] chunkV;
    private double[] chunkW;
    private int chunkFill;

    /** True when the owner declared the vertex universe: labels are looked up, never created. */
    private final boolean declared;

    /** True when line 1 was read as an edge because no header was detected (none forced). */
    private boolean firstLineDetectedAsData;

    private EdgeListParser(DatasetRepository repository, UUID datasetId, long chunkBytes) {
        this.repository = repository;
        this.datasetId = datasetId;
        Integer universe = repository.declaredVertices(datasetId);
        this.declared = universe != null;
        this.vertices = universe == null ? 0 : universe;
        this.edgesPerChunk = (int) Math.max(1, Math.min(1 << 22, chunkBytes / 16));
        this.chunkU = new int[edgesPerChunk];
        this.chunkV = new int[edgesPerChunk];
        this.chunkW = new double[edgesPerChunk];
    }

    static UploadStats parse(InputStream in, byte delimiter, @Nullable Boolean header, DatasetRepository repository,
            UUID datasetId, long chunkBytes, String format, java.util.function.LongSupplier bytesRead) {
        EdgeListParser parser = new EdgeListParser(repository, datasetId, chunkBytes);
        repository.execute("CREATE TEMP TABLE edge_stage (u integer, v integer, line bigint) ON COMMIT DROP");
        LineReader reader = new LineReader(in, delimiter);
        if (!reader.nextLine()) {
            throw InvalidDataException.whole("the upload is empty");
        }
        boolean skip = reader.isHeader(header, 3);
        if (skip && !reader.nextLine()) {
            throw InvalidDataException.whole("the upload has a header but no edges");
        }
        parser.firstLineDetectedAsData = header == null && !skip;
        do {
            int fields = reader.countFields();
            if (fields != 2 && fields != 3) {
                throw InvalidDataException.at(reader.lineNo, 0, "an edge line must be u,v or u,v,w but has "
                        + fields + " fields");
            }
            reader.nextField();
            String u = label(reader);
            reader.nextField();
            String v = label(reader);
            double w = 1.0;
            if (fields == 3) {
                reader.nextField();
                w = reader.fieldDouble();
                if (!(w >= 0 && w <= 1)) {
                    throw InvalidDataException.at(reader.lineNo, 3, "edge weights must lie in [0, 1]");
                }
            }
            if (u.equals(v)) {
                throw InvalidDataException.at(reader.lineNo, 0, "self-loops are not allowed");
            }
            parser.add(u, v, w, reader.lineNo);
        } while (reader.nextLine());
        parser.flushBatch();
        parser.flushChunk();
        parser.checkDuplicates();
        return new UploadStats(parser.vertices, parser.vertices, parser.edges, 0, format, "EDGES",
                bytesRead.getAsLong(), null);
    }

    /**
     * The header rule, when line 1 was read as an edge and fails: only a first line of three fields
     * whose third is not a number is detected as a header (two labels look like any edge).
     */
    static String headerHint(long line, boolean firstLineDetectedAsData) {
        return line == 1 && firstLineDetectedAsData ? " (line 1 was read as an edge: a header is detected only "
                + "as u,v,w with a non-numeric third field; pass header=true to skip a header of two names)" : "";
    }

    private static String label(LineReader reader) {
        String s = reader.fieldString();
        if (s.isEmpty()) {
            throw InvalidDataException.at(reader.lineNo, reader.fieldNo, "empty vertex label");
        }
        if (s.length() > MAX_LABEL) {
            throw InvalidDataException.at(reader.lineNo, reader.fieldNo, "vertex labels are limited to "
                    + MAX_LABEL + " characters");
        }
        return s;
    }

    private void add(String u, String v, double w, long line) {
        us[pending] = u;
        vs[pending] = v;
        ws[pending] = w;
        lines[pending] = line;
        pending++;
        if (pending == BATCH) {
            flushBatch();
        }
    }

    private void flushBatch() {
        if (pending == 0) {
            return;
        }
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (int i = 0; i < pending; i++) {
            distinct.add(us[i]);
            distinct.add(vs[i]);
        }
        Map<String, Integer> ids = new HashMap<>(repository.vertexIds(datasetId, distinct.toArray(String[]::new)));
        if (declared) {
            for (int i = 0; i < pending; i++) {
                if (!ids.containsKey(us[i]) || !ids.containsKey(vs[i])) {
                    throw InvalidDataException.at(lines[i], ids.containsKey(us[i]) ? 2 : 1,
                            "vertex label is not in the graph's declared vertex set"
                                    + headerHint(lines[i], firstLineDetectedAsData));
                }
            }
        }
        List<String> fresh = new ArrayList<>();
        for (String label : distinct) {
            if (!ids.containsKey(label)) {
                ids.put(label, vertices + fresh.size());
                fresh.add(label);
            }
        }
        if (!fresh.isEmpty()) {
            repository.insertVertices(datasetId, fresh, vertices);
            vertices += fresh.size();
        }
        StringBuilder stage = new StringBuilder(pending * 24);
        for (int i = 0; i < pending; i++) {
            int a = ids.get(us[i]);
            int b = ids.get(vs[i]);
            int lo = Math.min(a, b);
            int hi = Math.max(a, b);
            chunkU[chunkFill] = lo;
            chunkV[chunkFill] = hi;
            chunkW[chunkFill] = ws[i];
            chunkFill++;
            edges++;
            if (chunkFill == edgesPerChunk) {
                flushChunk();
            }
            stage.append(lo).append('\t').append(hi).append('\t').append(lines[i]).append('\n');
        }
        repository.copyIn("COPY edge_stage FROM STDIN", new StringReader(stage.toString()));
        pending = 0;
    }

    private void flushChunk() {
        if (chunkFill == 0) {
            return;
        }
        repository.insertChunk(datasetId, chunkNo++, edges - chunkFill, chunkFill, "EDGES", chunkFill,
                ChunkCodec.encodeEdges(chunkU, chunkV, chunkW, chunkFill));
        chunkFill = 0;
    }

    private void checkDuplicates() {
        long[] dup = repository.queryOne("SELECT line, first FROM (SELECT line, min(line) OVER (PARTITION BY u, v) "
                        + "AS first FROM edge_stage) s WHERE line > first ORDER BY line LIMIT 1",
                (rs, i) -> new long[] {rs.getLong(1), rs.getLong(2)});
        if (dup != null) {
            throw InvalidDataException.at(dup[0], 0, "duplicate edge: the same pair of vertices appears on line "
                    + dup[1]);
        }
    }
}
