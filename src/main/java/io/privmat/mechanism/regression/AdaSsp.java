package io.privmat.mechanism.regression;

import io.privmat.mechanism.catalog.Fact;
import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.Sensitivities;
import io.privmat.mechanism.analytics.LinearRegression;
import io.privmat.mechanism.analytics.RegressionResult;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.linalg.LinearAlgebra;
import io.privmat.privacy.ApproxDp;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * ADASSP (Wang, UAI 2018): regression of one column on others by three Gaussian releases — λ_min of
 * the predictors' Gram, the Gram, and the predictor–response cross moment — composed by
 * {@link PrivacyMap#compose}, then an adaptive ridge. The row bound B of the dataset bounds
 * ‖(x, y)‖. docs/mechanisms/analytics.md.
 */
public final class AdaSsp extends Described {

    public AdaSsp() {
        super("ADASSP", "Linear regression by adaptive sufficient-statistics perturbation (three Gaussian releases), "
                + "with an interval for every coefficient.", EnumSet.of(QueryKind.REGRESSION), MATRIX, BOTH,
                QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON, Input.GRAM, List.of(
                        Param.integer("response", 0, Limits.MAX_GRAM_DIMENSION - 1, null,
                                "the response column y (default: the last column)"),
                        Param.integers("predictors", 0, Limits.MAX_GRAM_DIMENSION - 1,
                                "the predictor columns, distinct, without the response (default: all other columns)"),
                        Param.number("level", 0.5, 0.999999, 0.95, "coverage of the coefficient intervals"),
                        Param.fraction("nu", AdaSspMechanism.DEFAULT_NU, "failure probability of AdaSSP's noise "
                                + "bounds that set the ridge (Wang's ϱ)")));
    }

    /**
     * The three released statistics, each divided by its own sensitivity, move by at most 1 each, so
     * by √3 together in L2; the three Gaussians have σᵢ proportional to their sensitivities, so the
     * composition is one Gaussian mechanism on this normalised vector.
     */
    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        return new Sensitivity("(XᵀX/Δ_F, Xᵀy/Δ_xy, λ_min(XᵀX)/B²)", "L2", Math.sqrt(3), "‖ΔXᵀX‖_F ≤ Δ_F = B² "
                + "(√2·B² replacing a row); ‖ΔXᵀy‖ ≤ Δ_xy = B²/2 (B²): ‖x‖·|y| ≤ (‖x‖² + y²)/2; |Δλ_min| ≤ B² (Weyl)");
    }

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return RequestParams.empty(); // the last column on all others
    }

    /**
     * A row z with ‖x‖² = y² = B²/2 on the first predictor and the response: added, the Gram part moves
     * by 1/2, the cross moment by 1 (ADD_REMOVE: ‖x‖·|y|/(B²/2)); replaced by (x, −y), the cross moment
     * moves by 2‖x‖·|y|/B² = 1 (REPLACE_ONE) — more than half of √3 either way.
     */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        int d = facts.cols();
        int response = response(params, d);
        int[] predictors = predictors(params, d, response);
        double half = facts.rowNormBound() / Math.sqrt(2) * (1 - 0x1p-40);
        double[] z = new double[d];
        z[predictors[0]] = half;
        z[response] = half;
        if (facts.relation() == NeighbouringRelation.ADD_REMOVE) {
            return List.of(new NeighbouringChange.AddedRow(z));
        }
        double[] flipped = z.clone();
        flipped[response] = -half;
        return List.of(new NeighbouringChange.ReplacedRow(z, flipped));
    }

    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        int d = facts.cols();
        int response = response(params, d);
        int[] predictors = predictors(params, d, response);
        double[] gram = data.gram(false).gram();
        int p = predictors.length;
        double gramSens = Sensitivities.gramFrobenius(facts.rowNormBound(), facts.relation());
        double crossSens = Sensitivities.crossMomentL2(facts.rowNormBound(), facts.relation());
        double[] xx = new double[p * p];
        double[] out = new double[p * p + p + 1];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < p; j++) {
                xx[i * p + j] = gram[predictors[i] * d + predictors[j]];
                out[i * p + j] = xx[i * p + j] / gramSens;
            }
            out[p * p + i] = gram[predictors[i] * d + response] / crossSens;
        }
        out[p * p + p] = LinearAlgebra.eigen(xx, p).values()[p - 1] / Sensitivities.minEigenvalue(facts.rowNormBound());
        return out;
    }

    @Override
    public Plan plan(QueryKind kind, QueryBudget budget, Params params, PublicFacts facts) {
        int d = facts.cols();
        Limits.checkGramDimension(d, name());
        if (d < 2) {
            throw PlanningException.invalid("params.predictors", "a dataset with at least 2 columns",
                    "regression needs at least 2 columns");
        }
        int response = response(params, d);
        int[] predictors = predictors(params, d, response);
        double nu = params.number("nu");
        double level = params.number("level");
        double bound = facts.rowNormBound();
        AdaSspMechanism ada = budget.isRho()
                ? AdaSspMechanism.forRho(predictors.length, bound, facts.relation(), budget.rhoDown(), nu)
                : AdaSspMechanism.forApproxDp(predictors.length, bound, facts.relation(), budget.epsilonDown(),
                        budget.deltaDown(), nu);
        List<PrivacyMap> parts = new ArrayList<>();
        ada.losses().forEach(loss -> parts.add(new PrivacyMap(loss, null)));
        PrivacyMap composed = PrivacyMap.compose(parts);
        // Calibrated by Gaussian-DP composition: the three together are exactly the requested (ε, δ).
        PrivacyMap privacy = budget.isRho() ? composed
                : composed.calibratedTo(new ApproxDp(budget.epsilon(), budget.delta()));
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.DISTRIBUTION, "discrete Gaussian on a grid: λ_min, symmetric (G + Gᵀ)/2 on XᵀX, and Xᵀy");
        noise.put(NoiseFacts.MIN_EIGENVALUE_SIGMA, ada.minEigenvalueSigma());
        noise.put(NoiseFacts.GRAM_SIGMA, ada.gramSigma());
        noise.put(NoiseFacts.CROSS_SIGMA, ada.crossSigma());
        noise.put(NoiseFacts.MIN_EIGENVALUE_SENSITIVITY, Sensitivities.minEigenvalue(bound));
        noise.put(NoiseFacts.FROBENIUS_SENSITIVITY, Sensitivities.gramFrobenius(bound, facts.relation()));
        noise.put(NoiseFacts.CROSS_SENSITIVITY, Sensitivities.crossMomentL2(bound, facts.relation()));
        noise.put(NoiseFacts.ETA, ada.eta());
        Long rows = facts.publicRows();
        return new Plan(spec(kind, budget, params, facts), privacy, noise, Input.GRAM, (data, random) -> {
            AdaSspMechanism.Released r = ada.release(data.gram(false).gram(), d, response, predictors, rows, level,
                    random);
            Facts.Builder released = Facts.builder(RegressionFacts.VOCABULARY);
            released.put(RegressionFacts.MIN_EIGENVALUE, r.minEigenvalue());
            released.put(RegressionFacts.MIN_EIGENVALUE_LOWER_BOUND, r.minEigenvalueLowerBound());
            released.put(RegressionFacts.ETA, r.eta());
            return new Release.Regression(r.regression(), released.build());
        });
    }

    static int response(Params params, int d) {
        Integer r = params.optionalInteger("response");
        if (r == null) {
            return d - 1;
        }
        if (r >= d) {
            throw PlanningException.invalid("params.response", "[0, " + (d - 1) + "]",
                    "params.response must be a column index in [0, " + (d - 1) + "]");
        }
        return r;
    }

    static int[] predictors(Params params, int d, int response) {
        int[] given = params.optionalIntegers("predictors");
        if (given == null) {
            return LinearRegression.otherColumns(d, response);
        }
        for (int c : given) {
            if (c >= d || c == response) {
                throw PlanningException.invalid("params.predictors", "distinct columns in [0, " + (d - 1)
                        + "] other than the response", "params.predictors must name columns in [0, " + (d - 1)
                        + "] other than the response " + response);
            }
        }
        return given;
    }

    /**
     * The public noise bound η on the released XᵀX's spectral norm (it sets the ridge), and the
     * coefficient error implied when the data are well conditioned is stated with the result.
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        double nu = plan.spec().params().number("nu");
        double gram = plan.noise().get(NoiseFacts.GRAM_SIGMA);
        int p = plan.spec().params().optionalIntegers("predictors") == null ? plan.spec().facts().cols() - 1
                : plan.spec().params().optionalIntegers("predictors").length;
        return List.of(new ErrorStatement("gram", "spectralNorm", plan.noise().get(NoiseFacts.ETA), 1 - nu / 2,
                        ErrorBasis.BOUND, "η bounds the released XᵀX's noise in spectral norm (it sets the ridge)"),
                new ErrorStatement("gram", "rmsePerEntry", gram, null, ErrorBasis.EXACT,
                        "symmetric discrete Gaussian on XᵀX, σ on the diagonal"),
                new ErrorStatement("cross", "rmsePerEntry", plan.noise().get(NoiseFacts.CROSS_SIGMA), null,
                        ErrorBasis.EXACT, "discrete Gaussian on Xᵀy (" + p + " entries)"));
    }

    /**
     * The released coefficient intervals: simultaneous bounds at the request's {@code level} (not the
     * level asked of this method: ADASSP fixes its level when it is planned), and the first-order
     * approximate intervals (ASYMPTOTIC). Entries without a finite bound are stated only as bounds.
     */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        RegressionResult r = ((Release.Regression) release).result();
        List<IntervalSet> intervals = new ArrayList<>();
        if (finite(r.lower()) && finite(r.upper())) {
            intervals.add(new IntervalSet("coefficients", ErrorBasis.BOUND, r.level(), r.estimate(), r.lower(),
                    r.upper(), "none"));
        }
        if (finite(r.approximateLower()) && finite(r.approximateUpper())) {
            intervals.add(new IntervalSet("coefficients (approximate)", ErrorBasis.ASYMPTOTIC, r.level(), r.estimate(),
                    r.approximateLower(), r.approximateUpper(), "none"));
        }
        return new ResultAccuracy(r.level(), intervals, expectedError(plan), "intervals at the request's level "
                + r.level() + "; the estimand is the data's ridge solution at the released ridge; "
                + (intervals.isEmpty() ? "no finite interval follows from this release (see the coefficients)" : ""));
    }

    private static boolean finite(double[] v) {
        for (double x : v) {
            if (!Double.isFinite(x)) {
                return false;
            }
        }
        return true;
    }

    /** What the shared facts it writes mean for it (served in their descriptions). */
    @Override
    public List<Fact.Note> factNotes() {
        return List.of(
            NoiseFacts.ETA.note("ADASSP: the noise bound η that sets its ridge"),
            NoiseFacts.MIN_EIGENVALUE_SIGMA.note("ADASSP: noise standard deviation of the released λ_min(XᵀX)"),
            NoiseFacts.GRAM_SIGMA.note("ADASSP: noise standard deviation per entry of the released XᵀX"),
            NoiseFacts.CROSS_SIGMA.note("ADASSP: noise standard deviation per entry of the released Xᵀy"),
            NoiseFacts.MIN_EIGENVALUE_SENSITIVITY.note("ADASSP: sensitivity of λ_min(XᵀX) (B²)"),
            NoiseFacts.CROSS_SENSITIVITY.note("ADASSP: L2 sensitivity of Xᵀy (B²/2, or B² replacing a row)"));
    }
}
