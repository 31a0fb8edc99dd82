package io.privmat.plan;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.HistogramDomain;
import io.privmat.mechanism.catalog.MechanismSpec;
import io.privmat.mechanism.catalog.ParsedSpec;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.catalog.RatingsFacts;
import io.privmat.mechanism.catalog.StreamLayout;
import io.privmat.mechanism.catalog.RatingsDomain;
import io.privmat.mechanism.catalog.RatingsRelation;
import io.privmat.mechanism.catalog.BlockRule;
import io.privmat.privacy.AccountingMode;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The stored spec of a plan, version 1: what a job's {@code parameters}, a ledger entry's plan and a
 * subscription's {@code spec} hold. Keys are written sorted (nested ones too), absent values are left
 * out, the budget keeps its exact decimals; the parameters are the one JSON object read untyped
 * ({@link RequestParams}), since the mechanism's parameter declarations validate them again on rebuild. Unknown keys are ignored on
 * reading, as they always were. A change of meaning needs a new {@link MechanismSpec#VERSION} and a
 * reader for the old one here.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"delta", "epsilon", "facts", "kind", "mechanism", "params", "rho", "version"})
public record SpecDocument(@Nullable Integer version, @Nullable String kind, @Nullable String mechanism,
        @Nullable BigDecimal epsilon, @Nullable BigDecimal delta, @Nullable BigDecimal rho,
        @Nullable RequestParams params, @Nullable Facts facts) {

    /** The dataset's public facts the plan was made on. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"accounting", "cols", "domain", "ratings", "relation", "rowNormBound", "rows", "shape",
        "stream"})
    public record Facts(@Nullable String accounting, @Nullable Integer cols, @Nullable Domain domain,
            @Nullable Ratings ratings, @Nullable String relation, @Nullable Double rowNormBound, @Nullable Long rows,
            @Nullable String shape, @Nullable Stream stream) {}

    /** A histogram's declared attributes and their sizes. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"names", "sizes"})
    public record Domain(@Nullable List<String> names, @Nullable List<Integer> sizes) {}

    /** A stream's block layout. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"blockRows", "blockRule", "graph", "horizonBlocks", "windowBlocks"})
    public record Stream(@Nullable Integer blockRows, @Nullable String blockRule, @Nullable Boolean graph,
            @Nullable Long horizonBlocks, @Nullable Integer windowBlocks) {}

    /** A ratings dataset's declared domain and relation. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"items", "max", "min", "perUserCap", "relation"})
    public record Ratings(@Nullable Integer items, @Nullable Double max, @Nullable Double min,
            @Nullable Integer perUserCap, @Nullable String relation) {}

    /** The document of {@code spec}. */
    public static SpecDocument of(MechanismSpec spec) {
        PublicFacts f = spec.facts();
        HistogramDomain d = f.domain();
        StreamLayout l = f.stream();
        RatingsFacts r = f.ratings();
        Facts facts = new Facts(f.mode().name(), f.cols(), d == null ? null : new Domain(d.names(), d.sizes()),
                r == null ? null : new Ratings(r.domain().items(), r.domain().hi(), r.domain().lo(),
                        r.domain().perUserCap(), r.relation().name()),
                f.relation().name(), f.rowNormBound(), f.publicRows(), f.shape().name(),
                l == null ? null : new Stream(l.blockRows(), l.blockRule().name(), l.graph(), l.horizonBlocks(),
                        l.windowBlocks()));
        QueryBudget b = spec.budget();
        return new SpecDocument(spec.version(), spec.kind().name(), spec.mechanism(), b.epsilon(), b.delta(), b.rho(),
                spec.params().stored(), facts);
    }

    /**
     * The spec this document describes, its parameters not yet validated.
     *
     * @throws IllegalArgumentException when it is not a spec of {@link MechanismSpec#VERSION}: another
     *     version, a missing or unknown value, facts that contradict each other
     */
    public ParsedSpec parsed() {
        if (version == null || version != MechanismSpec.VERSION) {
            throw new IllegalArgumentException("unsupported plan version " + version);
        }
        Facts f = required("facts", facts);
        Domain d = f.domain();
        HistogramDomain domain = d == null ? null
                : new HistogramDomain(required("facts.domain.names", d.names()), required("facts.domain.sizes", d.sizes()));
        Stream st = f.stream();
        StreamLayout stream = st == null ? null : new StreamLayout(
                BlockRule.valueOf(required("facts.stream.blockRule", st.blockRule())),
                required("facts.stream.blockRows", st.blockRows()),
                required("facts.stream.windowBlocks", st.windowBlocks()),
                required("facts.stream.horizonBlocks", st.horizonBlocks()), required("facts.stream.graph", st.graph()));
        Ratings ra = f.ratings();
        RatingsFacts ratings = ra == null ? null : new RatingsFacts(new RatingsDomain(
                required("facts.ratings.items", ra.items()), required("facts.ratings.min", ra.min()),
                required("facts.ratings.max", ra.max()), required("facts.ratings.perUserCap", ra.perUserCap())),
                RatingsRelation.valueOf(required("facts.ratings.relation", ra.relation())));
        PublicFacts publicFacts = new PublicFacts(DataShape.valueOf(required("facts.shape", f.shape())),
                required("facts.cols", f.cols()), f.rows(), required("facts.rowNormBound", f.rowNormBound()),
                NeighbouringRelation.valueOf(required("facts.relation", f.relation())),
                AccountingMode.valueOf(required("facts.accounting", f.accounting())), domain, stream, ratings);
        return new ParsedSpec(QueryKind.valueOf(required("kind", kind)), required("mechanism", mechanism),
                new QueryBudget(epsilon, delta, rho), params == null ? RequestParams.empty() : params, publicFacts);
    }

    private static <T> T required(String name, @Nullable T value) {
        if (value == null) {
            throw new IllegalArgumentException("the stored spec has no " + name);
        }
        return value;
    }
}
