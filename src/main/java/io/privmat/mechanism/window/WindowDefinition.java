package io.privmat.mechanism.window;

import io.privmat.mechanism.catalog.RequestParams;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.analytics.Tails;
import io.privmat.mechanism.catalog.Accuracies;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.Described;
import io.privmat.mechanism.catalog.ErrorBasis;
import io.privmat.mechanism.catalog.ErrorStatement;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.Input;
import io.privmat.mechanism.catalog.Limits;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.MechanismSpec;
import io.privmat.mechanism.catalog.NeighbouringChange;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.Param;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import io.privmat.mechanism.catalog.PrivacyMap;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.mechanism.catalog.Sensitivity;
import io.privmat.mechanism.catalog.SignalToNoise;
import io.privmat.mechanism.catalog.StreamLayout;
import io.privmat.mechanism.catalog.WindowParameters;
import io.privmat.mechanism.covariance.Covariances;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import io.privmat.privacy.PrivacyArgumentException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A sliding-window continual-release mechanism as a catalogue value (docs/mechanisms/windows.md):
 * it answers a standing query — COVARIANCE, PCA or SKETCH over the last w completed blocks of a
 * STREAM — with one release per completed block for the whole life of the stream, under one budget
 * charged once. The plan calibrates a {@link WindowMechanism} from public values only (d, B, the
 * relation, the stream's {@link StreamLayout}, the budget and the structural options); its loss is
 * the loss of the <em>whole stream</em>, any number of blocks (it does not depend on the horizon).
 *
 * <p><b>Sensitivity.</b> One row lies in one block and changes that block's Gram by at most
 * Δ_F (Frobenius: B² under ADD_REMOVE, √2·B² under REPLACE_ONE; 2 or 2√2 for an edge event).
 * The statistic the noise protects is everything the stream releases; one row enters 1 released
 * matrix (independent blocks), H of them (a dyadic tree: one node per level) or p of them scaled by
 * the Toeplitz coefficients c₀…c_{p−1} (a banded factorisation), so the declared L2 sensitivity of
 * the whole release is Δ_F, Δ_F·√H or Δ_F·‖c‖₂ ({@link WindowMechanism#streamSensitivity()}). The contract tests read
 * that statistic for a stream whose rows form block 0 (every later block empty): the H tree nodes
 * containing block 0 each equal its Gram G, the factorisation releases c_k·G for k &lt; p.
 *
 * <p>How a plan is used: a service calls {@link #mechanism(MechanismSpec)} on the (stored, rebuilt)
 * plan's spec to get the calibrated {@link WindowMechanism} that releases each block, and
 * {@link #answer} and {@link #releaseMeta} to render each release. The plan's own
 * {@link Plan#release} releases a stream of one block (its data) under a stream key drawn from the
 * given noise source: the one-shot form the contract tests exercise.
 */
public abstract class WindowDefinition extends Described {

    /** Most bytes of matrices one subscription's state may hold (its PostgreSQL rows and its cache). */
    public static final long MAX_STATE_BYTES = 4L << 30;

    private final WindowMechanismKind kind;

    WindowDefinition(String name, WindowMechanismKind kind, String summary, List<Param> options) {
        super(name, summary, EnumSet.of(QueryKind.COVARIANCE, QueryKind.PCA, QueryKind.SKETCH),
                EnumSet.of(DataShape.STREAM), BOTH, QueryBudget.Form.GAUSSIAN, QueryBudget.MAX_EPSILON, Input.BLOCK_GRAMS,
                params(options));
        this.kind = kind;
    }

    private static List<Param> params(List<Param> options) {
        List<Param> all = new ArrayList<>();
        all.add(Param.integer("k", 1, Limits.MAX_GRAM_DIMENSION, null, "PCA: the number of components (1..d) "
                + "of each window estimate"));
        all.add(Param.fraction("nu", 0.05, "failure probability of each interval stated by the free answers "
                + "(directional variances, cuts) on the window releases"));
        all.addAll(options);
        return all;
    }

    /** The core mechanism this value wraps. */
    public WindowMechanismKind windowKind() {
        return kind;
    }

    /** The structural options of these validated parameters. */
    abstract WindowMechanism.Options options(Params params);

    /**
     * The window mechanism a plan of a window value of {@code catalog} runs: calibrated from its spec,
     * public values only.
     */
    public static WindowMechanism mechanism(MechanismCatalog catalog, MechanismSpec spec) {
        MechanismDefinition found = catalog.find(spec.mechanism())
                .orElseThrow(() -> new IllegalArgumentException("unknown mechanism " + spec.mechanism()));
        if (!(found instanceof WindowDefinition w)) {
            throw new IllegalArgumentException(spec.mechanism() + " is not a window mechanism");
        }
        return w.calibrate(spec.budget(), spec.params(), spec.facts());
    }

    WindowMechanism calibrate(QueryBudget budget, Params params, PublicFacts facts) {
        WindowParameters p = layout(facts).parameters(facts);
        try {
            return budget.isRho() ? WindowMechanism.forRho(kind, p, budget.rhoDown(), options(params))
                    : WindowMechanism.forApproxDp(kind, p, budget.epsilonDown(), budget.deltaDown(), options(params));
        } catch (PrivacyArgumentException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            String option = e.getMessage() != null && e.getMessage().startsWith("treeLevels") ? "params.treeLevels"
                    : e.getMessage() != null && e.getMessage().startsWith("bands") ? "params.bands" : "budget";
            throw PlanningException.invalid(option, option.equals("budget") ? "a budget the mechanism can calibrate to"
                    : "[1, the largest the window allows]", e.getMessage());
        }
    }

    private static StreamLayout layout(PublicFacts facts) {
        if (facts.stream() == null) {
            throw new PlanningException(PlanningException.Reason.WRONG_DATASET_KIND, "window mechanisms answer "
                    + "standing queries on a STREAM dataset.", Map.of());
        }
        return facts.stream();
    }

    @Override
    public Sensitivity sensitivity(QueryKind kind, Params params, PublicFacts facts) {
        WindowMechanism m = WindowMechanism.forRho(this.kind, layout(facts).parameters(facts), 1, options(params));
        return new Sensitivity("the released matrices one row enters", "Frobenius", m.streamSensitivity(),
                "one row lies in one block, whose Gram moves by at most Δ_F = " + m.parameters().blockSensitivity()
                        + " (‖xxᵀ‖_F = ‖x‖² ≤ B²; √2·B² replacing x by y; 2 or 2√2 for an edge event); it enters "
                        + m.releasesPerRow() + " released matrices" + scaling());
    }

    /** How the block's change is scaled in the releases it enters, for the derivation text. */
    abstract String scaling();

    @Override
    public RequestParams exampleParams(QueryKind kind) {
        return rankOneFor(kind, QueryKind.PCA);
    }

    /**
     * Matrix streams: orthogonal rows at the bound (as for Analyze Gauss); edge streams: a unit-weight
     * edge event added, or replaced by an edge on other vertices — rows √w(e_u − e_v) of norm √2 = B.
     */
    @Override
    public List<NeighbouringChange> extremalChanges(QueryKind kind, Params params, PublicFacts facts) {
        if (!layout(facts).graph()) {
            return orthogonalRows(facts);
        }
        int n = facts.cols();
        double[] e01 = new double[n];
        e01[0] = 1;
        e01[1] = -1;
        if (facts.relation() == NeighbouringRelation.ADD_REMOVE) {
            return List.of(new NeighbouringChange.AddedRow(e01));
        }
        double[] other = new double[n];
        if (n >= 4) {
            other[2] = 1;
            other[3] = -1;
        } else if (n == 3) {
            other[1] = 1;
            other[2] = -1;
        }
        return List.of(new NeighbouringChange.ReplacedRow(e01, other));
    }

    /**
     * Everything the stream releases before noise when the data's rows form block 0 (and every later
     * block is empty): the released matrices that contain block 0, each as d×d, concatenated.
     */
    @Override
    public double[] statistic(QueryKind kind, Params params, PublicFacts facts, DataAccess data) {
        double[] gram = data.gram(false).gram();
        double[] weights = blockWeights(WindowMechanism.forRho(this.kind, layout(facts).parameters(facts), 1,
                options(params)));
        double[] out = new double[weights.length * gram.length];
        for (int r = 0; r < weights.length; r++) {
            for (int i = 0; i < gram.length; i++) {
                out[r * gram.length + i] = weights[r] * gram[i];
            }
        }
        return out;
    }

    /** The coefficients of block 0's Gram in the released matrices that contain it. */
    abstract double[] blockWeights(WindowMechanism m);

    @Override
    public Plan plan(QueryKind queryKind, QueryBudget budget, Params params, PublicFacts facts) {
        WindowParameters p = layout(facts).parameters(facts);
        int d = facts.cols();
        Limits.checkGramDimension(d, name());
        Integer k = params.optionalInteger("k");
        if (queryKind == QueryKind.PCA && (k == null || k > d)) {
            throw PlanningException.invalid("params.k", "[1, " + d + "]", "PCA needs params.k in [1, " + d + "]");
        }
        if (queryKind != QueryKind.PCA) {
            Limits.refuse(params, "k", "params.k applies to PCA subscriptions only");
        }
        WindowMechanism m = calibrate(budget, params, facts);
        if (m.maxStateBytes() > MAX_STATE_BYTES) {
            throw new PlanningException(PlanningException.Reason.DATASET_TOO_LARGE, name() + " would hold up to "
                    + m.maxStateBytes() + " bytes of state for d = " + d + " and w = " + p.windowBlocks()
                    + " (at most " + MAX_STATE_BYTES + "); declare fewer, longer blocks or a smaller d.",
                    Map.of("maxStateBytes", m.maxStateBytes(), "limit", MAX_STATE_BYTES));
        }
        double nu = params.number("nu");
        Facts.Builder noise = Facts.builder(NoiseFacts.VOCABULARY);
        noise.put(NoiseFacts.DISTRIBUTION, "symmetric discrete Gaussian (G + Gᵀ)/2 on a grid, fresh for each released "
                + "matrix (keyed by a secret stream key)");
        noise.put(NoiseFacts.SIGMA, m.sigma());
        noise.put(NoiseFacts.GRANULARITY, m.granularity());
        noise.put(NoiseFacts.BLOCK_SENSITIVITY, p.blockSensitivity());
        noise.put(NoiseFacts.FROBENIUS_SENSITIVITY, m.streamSensitivity());
        noise.put(NoiseFacts.L2_SENSITIVITY, m.privacyLoss().l2Sensitivity());
        noise.put(NoiseFacts.RELEASES_PER_ROW, m.releasesPerRow());
        describe(noise, m);
        noise.put(NoiseFacts.FULL_WINDOW_NOISE_VARIANCE,
                m.noiseVariance(Math.min(p.windowBlocks(), p.horizonBlocks()) - 1));
        noise.put(NoiseFacts.MAX_STATE_BYTES, m.maxStateBytes());
        noise.put(NoiseFacts.NU, nu);
        PrivacyMap privacy = PrivacyMap.calibrated(m.privacyLoss(), budget);
        String mechanismName = name();
        return new Plan(spec(queryKind, budget, params, facts), privacy, noise, Input.BLOCK_GRAMS, (data, random) -> {
            WindowRelease r = m.releaseFirstBlock(data.gram(false).gram(), streamKey(random)).release();
            return answer(queryKind, k, nu, p, r, mechanismName);
        });
    }

    /** Mechanism-specific noise facts (levels, bands). */
    void describe(Facts.Builder noise, WindowMechanism m) {}

    /** 256 bits from the noise source, as a stream key (the one-shot release of a plan). */
    private static byte[] streamKey(NoiseSource random) {
        byte[] key = new byte[NoiseSources.STREAM_KEY_BYTES];
        for (int i = 0; i < key.length; i += 8) {
            long v = random.nextLong();
            for (int b = 0; b < 8; b++) {
                key[i + b] = (byte) (v >>> (8 * b));
            }
        }
        return key;
    }

    /**
     * A window release rendered for its query kind — free post-processing: COVARIANCE, the PSD
     * projection (eigenvalues clamped to [0, rows·B²] when the window's row count is public, else
     * [0, ∞)); PCA, its top-k eigenpairs; SKETCH, the estimate itself, which answers directional
     * variances (and cuts for edge streams) with intervals. Every kind keeps the raw estimate as the
     * storable release.
     */
    public static Release answer(QueryKind kind, @Nullable Integer k, double nu, WindowParameters p, WindowRelease r,
            String mechanism) {
        Facts meta = releaseMeta(p, r, nu);
        return switch (kind) {
            case COVARIANCE -> new Release.Covariance(WindowAnswers.covariance(p, r, r.d(), true), false, false,
                    r.window().clone(), meta);
            case PCA -> {
                if (k == null) {
                    throw new IllegalArgumentException("PCA needs k");
                }
                CovarianceRelease top = WindowAnswers.covariance(p, r, k, false);
                yield new Release.Covariance(top, true, false, r.window().clone(), meta);
            }
            case SKETCH -> new Release.Sketch(p.graph(), mechanism, r.d(), r.d(), r.window().clone(), meta);
            default -> throw new IllegalArgumentException(kind + " is not a window query");
        };
    }

    /**
     * The noise warnings of a window release's eigenvalues (docs/accuracy/warnings.md, the spectrum rule),
     * from its stored public facts: the spectral bound of (G + Gᵀ)/2 with σ² = τ² plus the rounding, as
     * {@link #accuracy} states it. Post-processing of the release.
     */
    public static List<NoiseWarning> warnings(double[] eigenvalues, int d, Facts meta) {
        double tau = Math.sqrt(meta.get(ReleaseMeta.NOISE_VARIANCE));
        double rounding = meta.get(ReleaseMeta.ROUNDING_BOUND);
        double level = ResultAccuracy.DEFAULT_LEVEL;
        return SignalToNoise.spectrum("eigenvalues", eigenvalues, Accuracies.symmetricGaussianSpectral(tau, d,
                2 * rounding, level), level);
    }

    /** The public facts stored with a window release (the free answers' intervals need them). */
    public static Facts releaseMeta(WindowParameters p, WindowRelease r, double nu) {
        Facts.Builder meta = Facts.builder(ReleaseMeta.VOCABULARY);
        meta.put(ReleaseMeta.BLOCK, r.block());
        meta.put(ReleaseMeta.FIRST_BLOCK, r.firstBlock());
        if (r.rows() >= 0) {
            meta.put(ReleaseMeta.WINDOW_ROWS, r.rows());
        }
        meta.put(ReleaseMeta.NOISE_VARIANCE, r.noiseVariance());
        meta.put(ReleaseMeta.ROUNDING_BOUND, r.roundingBound());
        meta.put(ReleaseMeta.NU, nu);
        meta.put(ReleaseMeta.B2, p.rowBound() * p.rowBound());
        if (p.graph()) {
            meta.put(ReleaseMeta.VERTICES, p.d());
        }
        return meta.build();
    }

    /**
     * The window noise E is distributed as (G + Gᵀ)/2 with σ² = τ², τ² the variance of xᵀEx for a
     * unit x (fullWindowNoiseVariance for the first full window): COVARIANCE and PCA state its
     * Frobenius RMS and spectral bound ({@link Covariances#gramQuote}); SKETCH, each free
     * directional variance within z_{ν/2}·τ (exact for the Gaussian noise, plus grid rounding).
     */
    @Override
    public List<ErrorStatement> expectedError(Plan plan) {
        double tau = Math.sqrt(plan.noise().get(NoiseFacts.FULL_WINDOW_NOISE_VARIANCE));
        double nu = plan.noise().get(NoiseFacts.NU);
        int d = plan.spec().facts().cols();
        if (plan.spec().kind() == QueryKind.SKETCH) {
            return List.of(new ErrorStatement("directionalVariance", "absPerAnswer",
                    Tails.normalUpper(nu / 2) * tau, 1 - nu, ErrorBasis.EXACT,
                    "xᵀEx ~ N(0, τ²) for a unit x, first full window (plus grid rounding)"));
        }
        int k = plan.spec().params().optionalInteger("k") == null ? d : plan.spec().params().integer("k");
        return Covariances.gramQuote(plan.spec().kind(), k, Accuracies.symmetricGaussianSpectral(tau, d, 0,
                ResultAccuracy.DEFAULT_LEVEL), Accuracies.symmetricGaussianFrobeniusRms(tau, d), null, ErrorBasis.EXACT,
                "window noise ~ (G + Gᵀ)/2 with σ² = τ² (first full window; grid rounding excluded)");
    }

    /** From the release's own τ² and rounding bound (its metadata); as {@link #expectedError} otherwise. */
    @Override
    public ResultAccuracy accuracy(Plan plan, Release release, double level) {
        if (release instanceof Release.Covariance c) {
            double tau = Math.sqrt(c.storableMeta().get(ReleaseMeta.NOISE_VARIANCE));
            double rounding = c.storableMeta().get(ReleaseMeta.ROUNDING_BOUND);
            int d = c.result().d();
            Long rows = c.storableMeta().find(ReleaseMeta.WINDOW_ROWS);
            double b2 = c.storableMeta().get(ReleaseMeta.B2);
            double upper = rows == null ? Double.POSITIVE_INFINITY : rows.doubleValue() * b2;
            return Covariances.gramResult(c, level, Accuracies.symmetricGaussianSpectral(tau, d, 2 * rounding, level),
                    Accuracies.symmetricGaussianFrobenius(tau, d, 2 * rounding, level), upper,
                    "window noise ~ (G + Gᵀ)/2, σ² = τ²");
        }
        return new ResultAccuracy(level, List.of(), expectedError(plan), "each free answer of the window release "
                + "carries its interval at 1 − ν");
    }
}
