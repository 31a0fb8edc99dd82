package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.completion.RatingsDomain;
import io.privmat.mechanism.completion.RatingsRelation;
import io.privmat.mechanism.window.BlockRule;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The canonical, versioned plan of a query: which mechanism, for which kind, with which budget and
 * validated parameters (defaults filled in), on which public facts. It is what the ledger and the job
 * store; the worker rebuilds the mechanism from it and checks the loss before reading any row.
 */
public record MechanismSpec(int version, QueryKind kind, String mechanism, Budget budget, Params params,
        PublicFacts facts) {

    /** The current spec version; bump when the meaning of a stored spec changes. */
    public static final int VERSION = 1;

    /** As a JSON-ready map with sorted keys and exact decimals. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new TreeMap<>();
        m.put("version", version);
        m.put("kind", kind.name());
        m.put("mechanism", mechanism);
        m.putAll(budget.canonical());
        m.put("params", new TreeMap<>(params.asMap()));
        Map<String, Object> f = new TreeMap<>();
        f.put("shape", facts.shape().name());
        f.put("cols", facts.cols());
        if (facts.publicRows() != null) {
            f.put("rows", facts.publicRows());
        }
        f.put("rowNormBound", facts.rowNormBound());
        f.put("relation", facts.relation().name());
        f.put("accounting", facts.mode().name());
        if (facts.domain() != null) {
            Map<String, Object> domain = new TreeMap<>();
            domain.put("names", facts.domain().names());
            domain.put("sizes", facts.domain().sizes());
            f.put("domain", domain);
        }
        if (facts.stream() != null) {
            StreamLayout l = facts.stream();
            Map<String, Object> stream = new TreeMap<>();
            stream.put("blockRule", l.blockRule().name());
            stream.put("blockRows", l.blockRows());
            stream.put("windowBlocks", l.windowBlocks());
            stream.put("horizonBlocks", l.horizonBlocks());
            stream.put("graph", l.graph());
            f.put("stream", stream);
        }
        if (facts.ratings() != null) {
            RatingsFacts r = facts.ratings();
            Map<String, Object> ratings = new TreeMap<>();
            ratings.put("items", r.domain().items());
            ratings.put("min", r.domain().lo());
            ratings.put("max", r.domain().hi());
            ratings.put("perUserCap", r.domain().perUserCap());
            ratings.put("relation", r.relation().name());
            f.put("ratings", ratings);
        }
        m.put("facts", f);
        return m;
    }

    /**
     * Reads a stored spec (as parsed JSON: maps, numbers, strings). Numbers of the budget come back as
     * exact decimals.
     *
     * @throws IllegalArgumentException when the document is not a spec of this version
     */
    @SuppressWarnings("unchecked")
    public static ParsedSpec parse(Map<String, Object> doc) {
        Object v = doc.get("version");
        if (!(v instanceof Number n) || n.intValue() != VERSION) {
            throw new IllegalArgumentException("unsupported plan version " + v);
        }
        Map<String, Object> f = (Map<String, Object>) doc.get("facts");
        Object rows = f.get("rows");
        Map<String, Object> d = (Map<String, Object>) f.get("domain");
        HistogramDomain domain = d == null ? null : new HistogramDomain((java.util.List<String>) d.get("names"),
                ((java.util.List<Number>) d.get("sizes")).stream().map(Number::intValue).toList());
        Map<String, Object> st = (Map<String, Object>) f.get("stream");
        StreamLayout stream = st == null ? null : new StreamLayout(
                BlockRule.valueOf((String) st.get("blockRule")),
                ((Number) st.get("blockRows")).intValue(), ((Number) st.get("windowBlocks")).intValue(),
                ((Number) st.get("horizonBlocks")).longValue(), (Boolean) st.get("graph"));
        Map<String, Object> ra = (Map<String, Object>) f.get("ratings");
        RatingsFacts ratings = ra == null ? null : new RatingsFacts(new RatingsDomain(
                ((Number) ra.get("items")).intValue(), ((Number) ra.get("min")).doubleValue(),
                ((Number) ra.get("max")).doubleValue(), ((Number) ra.get("perUserCap")).intValue()),
                RatingsRelation.valueOf((String) ra.get("relation")));
        PublicFacts facts = new PublicFacts(DataShape.valueOf((String) f.get("shape")), ((Number) f.get("cols")).intValue(),
                rows == null ? null : ((Number) rows).longValue(), ((Number) f.get("rowNormBound")).doubleValue(),
                NeighbouringRelation.valueOf((String) f.get("relation")), AccountingMode.valueOf((String) f.get("accounting")),
                domain, stream, ratings);
        Budget budget = new Budget(decimal(doc.get("epsilon")), decimal(doc.get("delta")), decimal(doc.get("rho")));
        Map<String, Object> params = new LinkedHashMap<>((Map<String, Object>) doc.getOrDefault("params", Map.of()));
        return new ParsedSpec(QueryKind.valueOf((String) doc.get("kind")), (String) doc.get("mechanism"), budget,
                params, facts);
    }

    /** A stored spec read back, before its parameters are validated again by the mechanism. */
    public record ParsedSpec(QueryKind kind, String mechanism, Budget budget, Map<String, Object> params,
            PublicFacts facts) {}

    private static @Nullable BigDecimal decimal(@Nullable Object o) {
        if (o == null) {
            return null;
        }
        return o instanceof BigDecimal b ? b : new BigDecimal(o.toString());
    }
}
