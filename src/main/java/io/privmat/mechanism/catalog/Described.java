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
public abstract class Described implements MechanismDefinition {

    private final String name;
    private final String summary;
    private final Set<QueryKind> kinds;
    private final Set<DataShape> shapes;
    private final Set<NeighbouringRelation> relations;
    private final QueryBudget.Form form;
    private final BigDecimal maxEpsilon;
    private final List<Param> params;
    private final Input input;

    public Described(String name, String summary, Set<QueryKind> kinds, Set<DataShape> shapes,
            Set<NeighbouringRelation> relations, QueryBudget.Form form, BigDecimal maxEpsilon, Input input,
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

    public static final Set<NeighbouringRelation> BOTH = EnumSet.allOf(NeighbouringRelation.class);
    public static final Set<NeighbouringRelation> REPLACE_ONE = EnumSet.of(NeighbouringRelation.REPLACE_ONE);
    public static final Set<DataShape> MATRIX = EnumSet.of(DataShape.MATRIX);

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
    public final QueryBudget.Form budgetForm() {
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

    /** The input given at construction, for every shape (a mechanism whose input depends on it overrides). */
    @Override
    public Input input(DataShape shape) {
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
    protected static Sensitivity spectralGram(PublicFacts facts, String derivation) {
        double b = facts.rowNormBound();
        return new Sensitivity("XᵀX", "Spectral", b * b, derivation);
    }

    /** {k: 1} for the kinds that need a rank, else no parameters. */
    protected static RequestParams rankOneFor(QueryKind kind, QueryKind... needingK) {
        return java.util.Arrays.asList(needingK).contains(kind) ? RequestParams.of("k", 1) : RequestParams.empty();
    }

    /** The unit row e_j scaled to norm B. */
    protected static double[] axis(PublicFacts facts, int j) {
        double[] row = new double[facts.cols()];
        row[j] = facts.rowNormBound();
        return row;
    }

    /**
     * Extremal changes of a statistic linear in each row (Σᵢ xᵢ, the rows themselves): a row at the
     * bound added, or replaced by its negation (the movement doubles).
     */
    protected static List<NeighbouringChange> rowAgainstNegation(PublicFacts facts, double[] row) {
        if (facts.relation() == NeighbouringRelation.ADD_REMOVE) {
            return List.of(new NeighbouringChange.AddedRow(row));
        }
        double[] negated = row.clone();
        for (int j = 0; j < negated.length; j++) {
            negated[j] = -negated[j];
        }
        return List.of(new NeighbouringChange.ReplacedRow(row, negated));
    }

    /**
     * Extremal changes of XᵀX (and of XᵀX·V for V spanned by the first unit vectors): a row B·e₁
     * added, or B·e₁ replaced by the orthogonal B·e₂ — xxᵀ − yyᵀ then has eigenvalues ±B², spectral
     * norm B² and Frobenius norm √2·B² (replacing x by −x would not move XᵀX at all). With d = 1 the
     * row is replaced by 0.
     */
    protected static List<NeighbouringChange> orthogonalRows(PublicFacts facts) {
        double[] x = axis(facts, 0);
        if (facts.relation() == NeighbouringRelation.ADD_REMOVE) {
            return List.of(new NeighbouringChange.AddedRow(x));
        }
        double[] y = facts.cols() > 1 ? axis(facts, 1) : new double[1];
        return List.of(new NeighbouringChange.ReplacedRow(x, y));
    }

    /** The canonical spec of a plan of this mechanism. */
    protected final MechanismSpec spec(QueryKind kind, QueryBudget budget, Params p, PublicFacts facts) {
        return new MechanismSpec(MechanismSpec.VERSION, kind, name, budget, p, facts);
    }
}
