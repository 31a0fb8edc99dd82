package io.privmat.mechanism.catalog;

import io.privmat.mechanism.NeighbouringRelation;
import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The descriptive half of a {@link MechanismDefinition} held as fields, so that each mechanism class
 * writes only its sensitivity, its statistic and its plan.
 */
abstract class Described implements MechanismDefinition {

    private final String name;
    private final String summary;
    private final Set<QueryKind> kinds;
    private final Set<DataShape> shapes;
    private final Set<NeighbouringRelation> relations;
    private final Budget.Form form;
    private final BigDecimal maxEpsilon;
    private final List<Param> params;
    private final Input input;

    Described(String name, String summary, Set<QueryKind> kinds, Set<DataShape> shapes,
            Set<NeighbouringRelation> relations, Budget.Form form, BigDecimal maxEpsilon, Input input,
            List<Param> params) {
        this.name = name;
        this.summary = summary;
        this.kinds = Set.copyOf(kinds);
        this.shapes = Set.copyOf(shapes);
        this.relations = Set.copyOf(relations);
        this.form = form;
        this.maxEpsilon = maxEpsilon;
        this.params = List.copyOf(params);
        this.input = input;
    }

    static final Set<NeighbouringRelation> BOTH = EnumSet.allOf(NeighbouringRelation.class);
    static final Set<NeighbouringRelation> REPLACE_ONE = EnumSet.of(NeighbouringRelation.REPLACE_ONE);
    static final Set<DataShape> MATRIX = EnumSet.of(DataShape.MATRIX);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String summary() {
        return summary;
    }

    @Override
    public final Set<QueryKind> kinds() {
        return kinds;
    }

    @Override
    public final Set<DataShape> shapes() {
        return shapes;
    }

    @Override
    public final Set<NeighbouringRelation> relations() {
        return relations;
    }

    @Override
    public final Budget.Form budgetForm() {
        return form;
    }

    @Override
    public final BigDecimal maxEpsilon() {
        return maxEpsilon;
    }

    @Override
    public final List<Param> params() {
        return params;
    }

    @Override
    public final Input input() {
        return input;
    }

    /**
     * The statistic its input names: Σᵢ xᵢ, XᵀX or the rows themselves (mechanisms whose noise is
     * added to something else override this).
     */
    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        return switch (input) {
            case COLUMN_SUMS -> data.columnSums();
            case ROW_STREAM -> LowRanks.rows(data, facts.cols());
            default -> data.gram(false).gram();
        };
    }

    /** XᵀX moves by xxᵀ or xxᵀ − yyᵀ: spectral norm at most B² under both relations. */
    static Sensitivity spectralGram(PublicFacts facts, String derivation) {
        double b = facts.rowNormBound();
        return new Sensitivity("XᵀX", "Spectral", b * b, derivation);
    }

    /** The canonical spec of a plan of this mechanism. */
    final MechanismSpec spec(QueryKind kind, Budget budget, Params p, PublicFacts facts) {
        return new MechanismSpec(MechanismSpec.VERSION, kind, name, budget, p, facts);
    }
}
