package io.privmat.release;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.DatasetService;
import io.privmat.dataset.HistogramSchema;
import io.privmat.mechanism.analytics.AnalyticsArgumentException;
import io.privmat.mechanism.analytics.LinearRegression;
import io.privmat.mechanism.analytics.LowRankApproximation;
import io.privmat.mechanism.analytics.NoiseModel;
import io.privmat.mechanism.analytics.PrincipalComponents;
import io.privmat.mechanism.analytics.RegressionResult;
import io.privmat.mechanism.analytics.SecondMoment;
import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseWarning;
import io.privmat.mechanism.catalog.ReleaseMeta;
import io.privmat.mechanism.catalog.SignalToNoise;
import io.privmat.mechanism.linear.Box;
import io.privmat.mechanism.linear.Domain;
import io.privmat.mechanism.linear.Estimate;
import io.privmat.mechanism.linear.FurtherAnswer;
import io.privmat.mechanism.linear.LinearQueryException;
import io.privmat.mechanism.linear.Strategies;
import io.privmat.mechanism.linear.Strategy;
import io.privmat.mechanism.linear.Workload;
import io.privmat.mechanism.sketch.Interval;
import io.privmat.mechanism.sketch.JlGraphSketch;
import io.privmat.mechanism.sketch.JlMatrixSketch;
import io.privmat.mechanism.sketch.JlParameters;
import io.privmat.mechanism.sketch.QuadraticForms;
import io.privmat.mechanism.window.WindowAnswers;
import io.privmat.mechanism.window.WindowMechanismKind;
import io.privmat.mechanism.window.WindowRelease;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.Caller;
import io.privmat.security.Role;
import io.privmat.strategy.StrategyService;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

/**
 * Stores releases and answers the free queries on them. Answering is post-processing of an earlier
 * private output: it reads only the stored release (never the dataset's rows) and never touches the
 * ledger. Payloads are cached in memory (bounded by {@code privmat.releases.cache-bytes}).
 */
@Service
public class ReleaseService {

    /** Most vectors or sets in one request. */
    static final int MAX_QUERIES = 10_000;

    private final ReleaseRepository repository;
    private final DatasetService datasets;
    private final Clock clock;
    private final long cacheBytes;
    private final Map<UUID, Object> cache;
    private long cached;
    /** Second moments derived from JL sketches (MᵀM/r), most recent first, bounded in bytes. */
    private final Map<UUID, SecondMoment> derived = new LinkedHashMap<>(16, 0.75f, true);
    private long derivedBytes;
    private final Map<UUID, Map<String, Integer>> labelIndexes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Map<String, Integer>> eldest) {
            return size() > 8;
        }
    };

    private final StrategyService strategies;
    private final org.springframework.transaction.support.TransactionTemplate transactions;
    /** Estimates with their error models (the strategy's covariance), a few recent ones. */
    private final Map<UUID, Estimate> estimates = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Estimate> eldest) {
            return size() > 8;
        }
    };

    public ReleaseService(ReleaseRepository repository, DatasetService datasets, Clock clock,
            @Value("${privmat.releases.cache-bytes:1073741824}") long cacheBytes,
            StrategyService strategies,
            org.springframework.transaction.PlatformTransactionManager transactions) {
        this.transactions = new org.springframework.transaction.support.TransactionTemplate(transactions);
        this.repository = repository;
        this.datasets = datasets;
        this.strategies = strategies;
        this.clock = clock;
        this.cacheBytes = cacheBytes;
        this.cache = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** Stores a release (in the caller's transaction, or its own). */
    public void store(NewRelease release) {
        repository.insert(release, clock.instant());
    }

    /**
     * Stores an estimate release together with the strategy it names (meta {@code strategyKey}), in
     * one transaction (the caller's, or its own): the strategy is stored again if it was pruned after
     * the job read it, so a stored estimate always has its strategy (its free queries need it).
     *
     * @param strategy the strategy the job measured with
     */
    public void store(NewRelease release, Strategy strategy) {
        String key = release.meta().find(ReleaseMeta.STRATEGY_KEY);
        if (key == null) {
            store(release);
            return;
        }
        transactions.executeWithoutResult(s -> {
            strategies.keep(key, release.mechanism(), strategy);
            repository.insert(release, clock.instant());
        });
    }

    /**
     * A release the caller may see: its job is DONE, and the caller is the dataset's owner or the
     * analyst who submitted that job (still granted) — the same rule as for the job and its result.
     */
    public StoredRelease visible(UUID id, Caller caller) {
        StoredRelease release = repository.findServable(id).orElseThrow(() -> notFound(id));
        try {
            datasets.visible(release.datasetId(), caller);
        } catch (PrivmatException hidden) {
            throw notFound(id);
        }
        boolean owner = caller.is(Role.OWNER);
        boolean submitter = repository.submitter(id).map(caller.subject()::equals).orElse(false);
        if (!owner && !submitter) {
            throw notFound(id);
        }
        return release;
    }

    /**
     * Answers to free queries, with the coverage 1 − ν of their intervals and the noise warnings of
     * the interval rule (docs/accuracy/warnings.md: most intervals containing 0).
     */
    public record Answers(List<Interval> intervals, double confidence, List<NoiseWarning> warnings) {

        static Answers of(String quantity, List<Interval> intervals, StoredRelease release) {
            Double nu = release.meta().find(ReleaseMeta.NU);
            double confidence = nu != null ? 1 - nu : 0.95;
            return new Answers(intervals, confidence, SignalToNoise.intervals(quantity, confidence, intervals,
                    Interval::estimate, Interval::lower, Interval::upper));
        }
    }

    public Answers directionalVariance(UUID id, Caller caller, List<List<Double>> vectors) {
        StoredRelease release = visible(id, caller);
        if (release.kind() == ReleaseKind.GRAPH_SKETCH) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release is a graph sketch: it answers "
                    + "cut queries, not directional variance.", Map.of());
        }
        if (release.kind() == ReleaseKind.HISTOGRAM_ESTIMATE) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release is a histogram estimate: it "
                    + "answers linear queries (POST /v1/releases/" + id + "/linear-queries).", Map.of());
        }
        requireNotCompletionModel(release);
        checkCount("vectors", vectors.size());
        int d = dimension(release);
        double[] data = (double[]) payload(release);
        List<Interval> answers = new ArrayList<>(vectors.size());
        for (int q = 0; q < vectors.size(); q++) {
            double[] x = unit(vectors.get(q), d, q);
            answers.add(answer(release, data, d, x));
        }
        return Answers.of("directionalVariance", answers, release);
    }

    private static Interval answer(StoredRelease release, double[] data, int d, double[] x) {
        Facts meta = release.meta();
        double nu = meta.get(ReleaseMeta.NU);
        if (isWindow(release)) {
            return WindowAnswers.directionalVariance(window(release, data), x, nu);
        }
        if (release.kind() == ReleaseKind.MATRIX_SKETCH && meta.has(ReleaseMeta.R)) { // r random projections
            return JlMatrixSketch.directionalVariance(data, d, jl(meta), x);
        }
        if (meta.has(ReleaseMeta.DEGREES)) { // Wishart noise: its degrees of freedom set the interval
            return QuadraticForms.wishart(data, d, meta.get(ReleaseMeta.DEGREES), meta.get(ReleaseMeta.B2),
                    meta.get(ReleaseMeta.GRANULARITY), nu, x);
        }
        return QuadraticForms.analyzeGauss(data, d, meta.get(ReleaseMeta.SIGMA),
                meta.get(ReleaseMeta.GRANULARITY), nu, x);
    }

    /**
     * The COMPLETION_MODEL release of a DONE job and its stored values, without an access check: the
     * caller (the owner's predictions) checks that the caller owns the job's dataset.
     */
    public Optional<Map.Entry<StoredRelease, double[]>> completionModel(UUID jobId) {
        return repository.findByJob(jobId, ReleaseKind.COMPLETION_MODEL).flatMap(repository::findServable)
                .map(r -> Map.entry(r, (double[]) payload(r)));
    }

    /** A completion model answers no free query: its owner gets predictions from the job instead. */
    private static void requireNotCompletionModel(StoredRelease release) {
        if (release.kind() == ReleaseKind.COMPLETION_MODEL) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release is a completion model: it "
                    + "answers no free query; the data owner gets each user's predictions from GET /v1/jobs/"
                    + release.jobId() + "/predictions.", Map.of());
        }
    }

    public Answers cuts(UUID id, Caller caller, List<List<String>> sets) {
        StoredRelease release = visible(id, caller);
        if (release.kind() != ReleaseKind.GRAPH_SKETCH && release.kind() != ReleaseKind.WINDOW_LAPLACIAN) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release is not a graph sketch: it "
                    + "answers directional variance, not cuts.", Map.of());
        }
        checkCount("sets", sets.size());
        long total = 0;
        for (List<String> set : sets) {
            total += set == null ? 0 : set.size();
        }
        if (total > 5_000_000) {
            throw PrivmatException.invalidParameter("sets", "at most 5000000 labels in all",
                    "a request may name at most 5000000 vertex labels in all");
        }
        Map<String, Integer> ids = vertexIndex(release.datasetId());
        if (release.kind() == ReleaseKind.WINDOW_LAPLACIAN) {
            return windowCuts(release, sets, ids);
        }
        float[] sketch = (float[]) payload(release);
        int n = release.cols();
        JlParameters p = jl(release.meta());
        List<Interval> answers = new ArrayList<>(sets.size());
        for (int q = 0; q < sets.size(); q++) {
            LinkedHashSet<Integer> members = new LinkedHashSet<>();
            List<String> set = sets.get(q) == null ? List.of() : sets.get(q);
            for (int j = 0; j < set.size(); j++) {
                Integer v = ids.get(set.get(j));
                if (v == null) {
                    throw PrivmatException.invalidParameter("sets[" + q + "][" + j + "]", "a vertex label of the graph",
                            "sets[" + q + "][" + j + "] is not a vertex label of this graph");
                }
                members.add(v);
            }
            answers.add(JlGraphSketch.cut(sketch, n, p, members.stream().mapToInt(Integer::intValue).toArray()));
        }
        return Answers.of("cut", answers, release);
    }

    // ---- further linear queries on a histogram estimate (docs/mechanisms/linear-queries.md) ----

    /** Most boxes in one request. */
    public static final int MAX_BOXES = 100_000;
    /** Most dense query vectors in one request, and most of their entries in all. */
    public static final int MAX_VECTORS = 10_000;
    public static final long MAX_VECTOR_ENTRIES = 1L << 22;

    /** Further answers: qᵀx̂, its standard deviation, and the bias factor where the estimate is biased. */
    public record LinearAnswers(List<FurtherAnswer> answers, boolean biased,
            double noiseVariance, String strategyMethod, List<NoiseWarning> warnings) {

        /** Half-width of the intervals the warnings read: two standard deviations (≈ 95% for normal noise). */
        static final double STANDARD_DEVIATIONS = 2;

        static List<NoiseWarning> warnings(List<FurtherAnswer> answers) {
            return SignalToNoise.intervals("answers (± two standard deviations)", null, answers,
                    a -> a.value(), a -> a.value() - STANDARD_DEVIATIONS * a.standardDeviation(),
                    a -> a.value() + STANDARD_DEVIATIONS * a.standardDeviation());
        }
    }

    /**
     * Answers further linear queries from a HISTOGRAM_ESTIMATE release: boxes (attribute name →
     * [lo, hi] codes, unnamed attributes spanning their domain) or dense vectors of n cells. Reads the
     * stored estimate and the public strategy only.
     */
    public LinearAnswers linearQueries(UUID id, Caller caller, @Nullable List<Map<String, List<Integer>>> boxes,
            @Nullable List<List<Double>> vectors) {
        StoredRelease release = visible(id, caller);
        if (release.kind() != ReleaseKind.HISTOGRAM_ESTIMATE) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release is not a histogram estimate: "
                    + "linear queries are answered from the estimate of a LINEAR_QUERIES job.", Map.of());
        }
        if ((boxes == null) == (vectors == null)) {
            throw PrivmatException.invalidParameter("boxes", "boxes, or queries", "give either boxes or queries");
        }
        HistogramSchema schema = (HistogramSchema) datasets.get(
                release.datasetId()).schema();
        Estimate estimate = estimate(release, schema);
        List<FurtherAnswer> out = new ArrayList<>();
        try {
            if (boxes != null) {
                if (boxes.isEmpty() || boxes.size() > MAX_BOXES) {
                    throw PrivmatException.invalidParameter("boxes", "1–" + MAX_BOXES + " boxes",
                            "boxes must hold 1–" + MAX_BOXES + " boxes");
                }
                for (int b = 0; b < boxes.size(); b++) {
                    out.add(estimate.answer(box(boxes.get(b), schema, estimate.domain(), "boxes[" + b + "]")));
                }
            } else {
                int n = estimate.domain().cells();
                if (vectors.isEmpty() || vectors.size() > MAX_VECTORS || (long) vectors.size() * n > MAX_VECTOR_ENTRIES) {
                    throw PrivmatException.invalidParameter("queries", "1–" + MAX_VECTORS + " vectors of " + n
                            + " cells, at most " + MAX_VECTOR_ENTRIES + " entries in all", "queries must hold 1–"
                            + MAX_VECTORS + " vectors of " + n + " cells (at most " + MAX_VECTOR_ENTRIES + " entries)");
                }
                for (int q = 0; q < vectors.size(); q++) {
                    out.add(estimate.answer(finite(vectors.get(q), n, "queries[" + q + "]")));
                }
            }
        } catch (LinearQueryException e) {
            throw PrivmatException.invalidParameter(e.field(), "inside the domain", e.getMessage());
        }
        Boolean biased = release.meta().find(ReleaseMeta.BIASED);
        return new LinearAnswers(out, Boolean.TRUE.equals(biased), estimate.noiseVariance(),
                String.valueOf(release.meta().find(ReleaseMeta.STRATEGY_METHOD)), LinearAnswers.warnings(out));
    }

    private static Box box(@Nullable Map<String, List<Integer>> spec,
            HistogramSchema schema, Domain domain, String name) {
        List<String> names = schema.names();
        int[] lo = new int[names.size()];
        int[] hi = new int[names.size()];
        for (int a = 0; a < names.size(); a++) {
            hi[a] = domain.size(a) - 1;
        }
        if (spec != null) {
            for (Map.Entry<String, List<Integer>> e : spec.entrySet()) {
                String field = name + "." + (e.getKey().length() > 64 ? e.getKey().substring(0, 64) : e.getKey());
                int a = names.indexOf(e.getKey());
                if (a < 0) {
                    throw PrivmatException.invalidParameter(field, String.join(" | ", names), field
                            + " is not an attribute of this dataset");
                }
                List<Integer> pair = e.getValue();
                int max = domain.size(a) - 1;
                if (pair == null || pair.size() != 2 || pair.get(0) == null || pair.get(1) == null || pair.get(0) < 0
                        || pair.get(0) > pair.get(1) || pair.get(1) > max) {
                    throw PrivmatException.invalidParameter(field, "[lo, hi] with 0 ≤ lo ≤ hi ≤ " + max, field
                            + " must be an interval [lo, hi] of codes with 0 ≤ lo ≤ hi ≤ " + max);
                }
                lo[a] = pair.get(0);
                hi[a] = pair.get(1);
            }
        }
        return Box.of(domain, lo, hi);
    }

    /** The stored estimate with its public error model, rebuilt from the release's meta and the strategy. */
    private Estimate estimate(StoredRelease release, HistogramSchema schema) {
        synchronized (estimates) {
            Estimate hit = estimates.get(release.id());
            if (hit != null) {
                return hit;
            }
        }
        Domain domain = Domain.of(schema.sizes());
        Workload cells = Workload.identity(domain);
        String method = String.valueOf(release.meta().find(ReleaseMeta.STRATEGY_METHOD));
        Strategy strategy = Strategies.rebuilt(method, cells).orElseGet(() -> {
            String key = String.valueOf(release.meta().find(ReleaseMeta.STRATEGY_KEY));
            return strategies.load(key).orElseThrow(() -> new PrivmatException(ProblemType.STRATEGY_NOT_FOUND,
                    "The strategy " + key + " of this estimate is not stored.", Map.of("strategyKey", key)));
        });
        Estimate e = new Estimate(domain, strategy,
                release.meta().get(ReleaseMeta.NOISE_VARIANCE), (double[]) payload(release));
        synchronized (estimates) {
            estimates.put(release.id(), e);
        }
        return e;
    }

    // ---- free analytics on covariance-type releases (docs/mechanisms/analytics.md) ----

    /** Largest number of vectors projected in one low-rank request. */
    static final int MAX_PROJECTIONS = 1_000;

    public RegressionResult regression(UUID id, Caller caller, int response, int @Nullable [] predictors,
            @Nullable Double ridge, double level) {
        SecondMoment m = secondMoment(visible(id, caller));
        int[] columns = predictors != null ? predictors : LinearRegression.otherColumns(m.d(), response);
        return analytic(() -> LinearRegression.fit(m, response, columns, ridge, level));
    }

    public PrincipalComponents.Result sparsePca(UUID id, Caller caller, int k, int s, int iterations, double level) {
        SecondMoment m = secondMoment(visible(id, caller));
        return analytic(() -> PrincipalComponents.sparse(m, k, s, iterations, level));
    }

    public PrincipalComponents.Result nonNegativePca(UUID id, Caller caller, int k, int iterations, double level) {
        SecondMoment m = secondMoment(visible(id, caller));
        return analytic(() -> PrincipalComponents.nonNegative(m, k, iterations, level));
    }

    public LowRankApproximation.Result lowRank(UUID id, Caller caller, int k, List<List<Double>> vectors,
            double level) {
        SecondMoment m = secondMoment(visible(id, caller));
        if (vectors.size() > MAX_PROJECTIONS) {
            throw PrivmatException.invalidParameter("vectors", "at most " + MAX_PROJECTIONS + " vectors",
                    "vectors may hold at most " + MAX_PROJECTIONS + " vectors");
        }
        List<double[]> xs = new ArrayList<>(vectors.size());
        for (int q = 0; q < vectors.size(); q++) {
            xs.add(finite(vectors.get(q), m.d(), "vectors[" + q + "]"));
        }
        return analytic(() -> LowRankApproximation.of(m, k, xs, level));
    }

    private static <T> T analytic(Supplier<T> call) {
        try {
            return call.get();
        } catch (AnalyticsArgumentException e) {
            throw PrivmatException.invalidParameter(e.parameter(), e.allowedRange(), e.getMessage());
        }
    }

    /**
     * A covariance-type release as a noisy second moment with its public noise model, read from the
     * release's meta: {@code sigma} (Analyze Gauss: Ĉ = XᵀX + symmetric Gaussian noise),
     * {@code degrees} and {@code b2} (Wishart: XᵀX + Wishart_d(B²I, k)), or {@code r} and {@code floor}
     * (a JL sketch M, r × d, read as MᵀM/r). Any future release kind that stores one of these shapes
     * with the same meta gets every analytic.
     */
    SecondMoment secondMoment(StoredRelease release) {
        requireNotCompletionModel(release);
        if (release.kind() == ReleaseKind.GRAPH_SKETCH || release.kind() == ReleaseKind.HISTOGRAM_ESTIMATE) {
            throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release is a graph sketch: it answers "
                    + "cut queries, not analytics of a second-moment matrix.", Map.of());
        }
        Facts meta = release.meta();
        int d = release.cols();
        if (meta.has(ReleaseMeta.SIGMA)) {
            return new SecondMoment(d, (double[]) payload(release),
                    new NoiseModel.Gaussian(meta.get(ReleaseMeta.SIGMA), meta.get(ReleaseMeta.GRANULARITY)));
        }
        if (meta.has(ReleaseMeta.DEGREES)) {
            return new SecondMoment(d, (double[]) payload(release),
                    new NoiseModel.Wishart(meta.get(ReleaseMeta.DEGREES), meta.get(ReleaseMeta.B2),
                            meta.get(ReleaseMeta.GRANULARITY)));
        }
        if (meta.has(ReleaseMeta.R) && meta.has(ReleaseMeta.FLOOR)) {
            synchronized (derived) {
                SecondMoment hit = derived.get(release.id());
                if (hit != null) {
                    return hit;
                }
            }
            SecondMoment m = SecondMoment.ofSketch((double[]) payload(release), release.rows(), d,
                    meta.get(ReleaseMeta.FLOOR));
            long size = (long) d * d * 8;
            synchronized (derived) {
                var it = derived.entrySet().iterator();
                while (derivedBytes + size > cacheBytes / 4 && it.hasNext()) {
                    derivedBytes -= (long) it.next().getValue().matrix().length * 8;
                    it.remove();
                }
                if (size <= cacheBytes / 4 && derived.putIfAbsent(release.id(), m) == null) {
                    derivedBytes += size;
                }
            }
            return m;
        }
        throw new PrivmatException(ProblemType.WRONG_DATASET_KIND, "This release holds no second-moment matrix "
                + "with a known noise model.", Map.of());
    }

    private static double[] finite(List<Double> vector, int d, String name) {
        if (vector == null || vector.size() != d) {
            throw PrivmatException.invalidParameter(name, d + " numbers", name + " must have " + d + " entries");
        }
        double[] x = new double[d];
        for (int i = 0; i < d; i++) {
            Double v = vector.get(i);
            if (v == null || !Double.isFinite(v)) {
                throw PrivmatException.invalidParameter(name, "finite numbers", name + " must hold finite numbers");
            }
            x[i] = v;
        }
        return x;
    }

    private static boolean isWindow(StoredRelease release) {
        return release.kind() == ReleaseKind.WINDOW_COVARIANCE || release.kind() == ReleaseKind.WINDOW_LAPLACIAN;
    }

    /**
     * A stored window release as the mechanism made it: the estimate and the public facts of its
     * noise (τ² per unit direction, the rounding bound), which the intervals are computed from.
     */
    private static WindowRelease window(StoredRelease release, double[] data) {
        Facts meta = release.meta();
        Long rows = meta.find(ReleaseMeta.WINDOW_ROWS);
        return new WindowRelease(WindowMechanismKind.valueOf(release.mechanism()), meta.get(ReleaseMeta.BLOCK),
                meta.get(ReleaseMeta.FIRST_BLOCK), rows != null ? rows : -1, release.cols(), data,
                meta.get(ReleaseMeta.NOISE_VARIANCE), meta.get(ReleaseMeta.ROUNDING_BOUND));
    }

    /** Cuts of an edge stream's window: 1_Tᵀ L̂ 1_T for the smaller side T, with its interval. */
    private Answers windowCuts(StoredRelease release, List<List<String>> sets, Map<String, Integer> ids) {
        WindowRelease window = window(release, (double[]) payload(release));
        double nu = release.meta().get(ReleaseMeta.NU);
        List<Interval> answers = new ArrayList<>(sets.size());
        for (int q = 0; q < sets.size(); q++) {
            boolean[] side = new boolean[release.cols()];
            List<String> set = sets.get(q) == null ? List.of() : sets.get(q);
            for (int j = 0; j < set.size(); j++) {
                Integer v = ids.get(set.get(j));
                if (v == null) {
                    throw PrivmatException.invalidParameter("sets[" + q + "][" + j + "]", "a vertex label of the graph",
                            "sets[" + q + "][" + j + "] is not a vertex label of this graph");
                }
                side[v] = true;
            }
            answers.add(WindowAnswers.cut(window, side, nu));
        }
        return Answers.of("cut", answers, release);
    }

    private static void checkCount(String name, int count) {
        if (count < 1 || count > MAX_QUERIES) {
            throw PrivmatException.invalidParameter(name, "1–" + MAX_QUERIES + " items",
                    name + " must hold 1–" + MAX_QUERIES + " items");
        }
    }

    private static double[] unit(List<Double> vector, int d, int index) {
        String name = "vectors[" + index + "]";
        if (vector == null || vector.size() != d) {
            throw PrivmatException.invalidParameter(name, d + " numbers", name + " must have " + d + " entries");
        }
        double[] x = new double[d];
        double norm = 0;
        for (int i = 0; i < d; i++) {
            Double v = vector.get(i);
            if (v == null || !Double.isFinite(v)) {
                throw PrivmatException.invalidParameter(name, "finite numbers", name + " must hold finite numbers");
            }
            x[i] = v;
            norm += v * v;
        }
        norm = Math.sqrt(norm);
        if (!(norm > 0) || !Double.isFinite(norm)) {
            throw PrivmatException.invalidParameter(name, "a non-zero vector", name + " is zero; a direction is needed");
        }
        for (int i = 0; i < d; i++) {
            x[i] /= norm;
        }
        return x;
    }

    private static int dimension(StoredRelease r) {
        return r.cols();
    }

    private static JlParameters jl(Facts meta) {
        return new JlParameters(meta.get(ReleaseMeta.R), meta.get(ReleaseMeta.FLOOR), meta.get(ReleaseMeta.EPSILON),
                meta.get(ReleaseMeta.DELTA), meta.get(ReleaseMeta.ETA), meta.get(ReleaseMeta.NU),
                meta.get(ReleaseMeta.B2));
    }

    /** Label → vertex id of a graph, cached (a few recent graphs). */
    private Map<String, Integer> vertexIndex(UUID datasetId) {
        synchronized (labelIndexes) {
            Map<String, Integer> hit = labelIndexes.get(datasetId);
            if (hit != null) {
                return hit;
            }
        }
        Map<String, Integer> loaded = datasets.vertexIndex(datasetId);
        synchronized (labelIndexes) {
            labelIndexes.put(datasetId, loaded);
        }
        return loaded;
    }

    private synchronized Object payload(StoredRelease release) {
        Object hit = cache.get(release.id());
        if (hit != null) {
            return hit;
        }
        Object loaded = repository.payload(release.id(), release.encoding());
        long size = loaded instanceof float[] f ? f.length * 4L : ((double[]) loaded).length * 8L;
        var it = cache.entrySet().iterator();
        while (cached + size > cacheBytes && it.hasNext()) {
            Object evicted = it.next().getValue();
            cached -= evicted instanceof float[] f ? f.length * 4L : ((double[]) evicted).length * 8L;
            it.remove();
        }
        if (size <= cacheBytes) {
            cache.put(release.id(), loaded);
            cached += size;
        }
        return loaded;
    }

    private static PrivmatException notFound(UUID id) {
        return new PrivmatException(ProblemType.NOT_FOUND, "No release with id " + id + ".",
                Map.of("releaseId", id.toString()));
    }
}
