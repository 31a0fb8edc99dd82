package io.privmat.mechanism.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The rules that say an answer is noise-dominated ({@link NoiseWarning}; docs/accuracy/warnings.md
 * gives each rule and why it is the right comparison). Three rules serve every family:
 * <ul>
 *   <li><b>Ceiling</b> (quotes, public parameters only): a stated error at least as large as the
 *       largest value any dataset with these public facts can give (n·B for a column sum, n·B² for an
 *       eigenvalue of XᵀX, √n·B for a singular value, n − 1 for a vertex's cut, N for a counting
 *       query). Certain: whatever the data, the answer is noise.</li>
 *   <li><b>Spectrum</b> (results): a released eigenvalue or singular value not above the noise's
 *       spectral bound (Weyl: it cannot be told from 0). The top one within the noise makes the whole
 *       spectrum noise-dominated; later ones within it leave only the first components as signal.</li>
 *   <li><b>Intervals</b> (results and free answers): most released entries' intervals contain 0, so
 *       not even their sign or presence is resolved.</li>
 * </ul>
 * Results use only released values and public parameters (post-processing).
 */
public final class SignalToNoise {

    private SignalToNoise() {}

    /** Quantities whose entries are a spectrum (descending, non-negative): the spectrum rule. */
    static final Set<String> SPECTRA = Set.of("eigenvalues", "singularValues", "spectrum");

    /**
     * Interval sets for which "contains 0" is no sign of noise: a covariance's off-diagonal entries
     * are near 0 in well-behaved data; its eigenvalues carry the comparison.
     */
    private static final Set<String> NOT_BY_ZERO = Set.of("covariance");

    /** The remedies a noise-dominated warning names. */
    public static final String BUDGET_ADVICE = " A larger budget (the inverse quote finds the smallest one for a "
            + "target error) or coarser questions are the remedies.";

    // ---- quotes: the ceiling rule ----

    /** The largest value of a released quantity any dataset with these public facts can give. */
    record Ceiling(double value, String what) {}

    /**
     * The quote's warnings: every statement at least as large as its quantity's public ceiling, one per
     * quantity (the first such statement).
     */
    public static List<NoiseWarning> quote(Plan plan, List<ErrorStatement> statements) {
        List<NoiseWarning> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (ErrorStatement s : statements) {
            Ceiling c = ceiling(s, plan);
            if (c == null || s.value() < c.value() || !seen.add(base(s.quantity()))) {
                continue;
            }
            out.add(new NoiseWarning(NoiseWarning.Code.NOISE_DOMINATED, s.quantity(), s.value(), s.level(), c.value(),
                    null, null, "The stated " + s.metric() + " error " + fmt(s.value()) + " is at least " + c.what()
                    + " = " + fmt(c.value()) + ", the largest value any dataset with these public facts can give: "
                    + "whatever the data, this answer is noise." + BUDGET_ADVICE));
        }
        return out;
    }

    /** The ceiling of a statement's quantity, or null where the public facts give none (n private). */
    static @Nullable Ceiling ceiling(ErrorStatement s, Plan plan) {
        PublicFacts f = plan.spec().facts();
        String key = s.quantity() + "|" + s.metric();
        if (f.shape() == DataShape.GRAPH) {
            double v = f.cols();
            return switch (key) {
                case "cut (additive, one vertex)|absPerAnswer" -> new Ceiling(v - 1,
                        "n − 1, the largest cut of one vertex (its degree, edge weights ≤ 1)");
                case "cut (additive, balanced set)|absPerAnswer" -> new Ceiling(Math.floor(v / 2) * Math.ceil(v / 2),
                        "⌊n/2⌋·⌈n/2⌉, the largest cut of a balanced set");
                default -> null;
            };
        }
        Long n = f.publicRows();
        if (n == null) {
            return null;
        }
        double b = f.rowNormBound();
        return switch (key) {
            case "columnSums|absPerEntry" -> new Ceiling(n * b, "n·B, the largest |column sum|");
            case "eigenvalues|absPerEigenvalue", "singularValuesSquared|absPerEigenvalue",
                    "components|sinThetaTimesGap", "directionalVariance|absPerAnswer",
                    "directionalVariance (additive)|absPerAnswer" -> new Ceiling(n * b * b,
                    "n·B², the largest eigenvalue of XᵀX (its trace is at most n·B²)");
            case "singularValues|absPerEntry", "lowRank|excessFrobeniusNorm" -> new Ceiling(Math.sqrt(n) * b,
                    "√n·B, the largest singular value of X (‖X‖_F ≤ √n·B)");
            case "answers|absPerAnswer" -> counting(plan) ? new Ceiling(n, "N, the record count: the largest answer "
                    + "of a counting query") : null;
            default -> null;
        };
    }

    /** A workload of 0/1 counting queries (every type but CUSTOM, whose weights are arbitrary). */
    private static boolean counting(Plan plan) {
        return plan.spec().facts().shape() == DataShape.HISTOGRAM
                && plan.spec().params().optionalWorkload("workload") != null
                && !(plan.spec().params().optionalWorkload("workload") instanceof WorkloadSpec.Custom);
    }

    // ---- results ----

    /**
     * The result's warnings from its accuracy (released values and public parameters): the spectrum
     * rule for spectra, the interval rule for other interval sets (one warning per quantity). A family
     * adds its own (a completion model's spectrum: {@code CompletionWarnings} of the completion family).
     */
    public static List<NoiseWarning> result(Release release, ResultAccuracy accuracy) {
        List<NoiseWarning> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (IntervalSet s : accuracy.intervals()) {
            String base = base(s.quantity());
            if (NOT_BY_ZERO.contains(base) || !seen.add(base)) {
                continue;
            }
            if (SPECTRA.contains(base)) {
                double noise = spectralNoise(s, accuracy);
                out.addAll(spectrum(s.quantity(), s.estimate(), noise, s.level()));
            } else {
                out.addAll(intervals(s.quantity(), s.level(), s.estimate(), s.lower(), s.upper()));
            }
        }
        if (release instanceof Release.Factors f && !seen.contains("singularValues")) {
            // Singular values released without intervals (shrunk by post-processing): the Weyl bound
            // still holds for the unshrunk values, which shrinkage only lowers.
            ErrorStatement b = accuracy.bounds().stream().filter(x -> x.quantity().equals("singularValues")
                    && x.metric().equals("absPerEntry")).findFirst().orElse(null);
            if (b != null) {
                out.addAll(spectrum("singularValues", f.factorization().s(), b.value(), b.level()));
            }
        }
        return out;
    }

    /**
     * The spectrum rule: entries (any order) above {@code noise} are resolved. None resolved:
     * NOISE_DOMINATED; some: COMPONENTS_IN_NOISE; all: nothing.
     */
    public static List<NoiseWarning> spectrum(String quantity, double[] values, double noise, @Nullable Double level) {
        if (values.length == 0) {
            return List.of();
        }
        double top = Arrays.stream(values).max().orElse(0);
        int resolved = (int) Arrays.stream(values).filter(v -> v > noise).count();
        if (resolved == values.length) {
            return List.of();
        }
        if (resolved == 0) {
            return List.of(new NoiseWarning(NoiseWarning.Code.NOISE_DOMINATED, quantity, noise, level, top, 0,
                    values.length, "The largest released " + singular(quantity) + ", " + fmt(top) + ", is not above "
                    + "the noise's bound " + fmt(noise) + ": it cannot be told from 0, so the whole answer (the "
                    + "directions included) is noise-dominated." + BUDGET_ADVICE));
        }
        return List.of(new NoiseWarning(NoiseWarning.Code.COMPONENTS_IN_NOISE, quantity, noise, level, top, resolved,
                values.length, resolved + " of the " + values.length + " released " + quantity + " exceed the noise's "
                + "bound " + fmt(noise) + "; the others cannot be told from 0, so only "
                + (resolved == 1 ? "the first component is" : "the first " + resolved + " components are")
                + " signal (a rank of " + resolved + " suffices at this budget)."));
    }

    /**
     * The interval rule: NOISE_DOMINATED when more than half of the intervals contain 0. The noise
     * level stated is the median half-width, compared with the median |estimate|.
     */
    public static List<NoiseWarning> intervals(String quantity, @Nullable Double level, double[] estimate,
            double[] lower, double[] upper) {
        int m = estimate.length;
        if (m == 0) {
            return List.of();
        }
        int zero = 0;
        double[] half = new double[m];
        double[] size = new double[m];
        for (int i = 0; i < m; i++) {
            if (lower[i] <= 0 && 0 <= upper[i]) {
                zero++;
            }
            half[i] = (upper[i] - lower[i]) / 2;
            size[i] = Math.abs(estimate[i]);
        }
        if (2 * zero <= m) {
            return List.of();
        }
        double noise = median(half);
        if (!Double.isFinite(noise)) {
            return List.of();
        }
        return List.of(new NoiseWarning(NoiseWarning.Code.NOISE_DOMINATED, quantity, noise, level, median(size),
                m - zero, m, zero + " of the " + m + " intervals of " + quantity + " contain 0 (median half-width "
                + fmt(noise) + " against a median |estimate| of " + fmt(median(size)) + "): most answers cannot be "
                + "told from 0 at this noise." + BUDGET_ADVICE));
    }

    /** {@link #intervals(String, Double, double[], double[], double[])} over a list of answers. */
    public static <T> List<NoiseWarning> intervals(String quantity, @Nullable Double level, List<T> answers,
            java.util.function.ToDoubleFunction<T> estimate, java.util.function.ToDoubleFunction<T> lower,
            java.util.function.ToDoubleFunction<T> upper) {
        return intervals(quantity, level, answers.stream().mapToDouble(estimate).toArray(),
                answers.stream().mapToDouble(lower).toArray(), answers.stream().mapToDouble(upper).toArray());
    }

    /**
     * The noise bound of a spectrum: its absPerEigenvalue or absPerEntry statement at the set's level,
     * else the widest upper half-width of its intervals.
     */
    private static double spectralNoise(IntervalSet s, ResultAccuracy accuracy) {
        for (ErrorStatement b : accuracy.bounds()) {
            if ((b.quantity().equals(s.quantity()) || b.quantity().equals(s.quantity() + "Squared"))
                    && (b.metric().equals("absPerEigenvalue") || b.metric().equals("absPerEntry"))) {
                // singularValuesSquared: the bound is on s², compare s with its root.
                return b.quantity().endsWith("Squared") ? Math.sqrt(b.value()) : b.value();
            }
        }
        double widest = 0;
        for (int i = 0; i < s.estimate().length; i++) {
            widest = Math.max(widest, s.upper()[i] - s.estimate()[i]);
        }
        return widest;
    }

    /** The first bound on {@code quantity}, or null. */
    public static @Nullable ErrorStatement statement(ResultAccuracy accuracy, String quantity) {
        return accuracy.bounds().stream().filter(b -> b.quantity().equals(quantity)).findFirst().orElse(null);
    }

    // ---- helpers ----

    /** "coefficients (approximate)" → "coefficients", "cut (additive, one vertex)" → "cut". */
    static String base(String quantity) {
        int cut = quantity.indexOf(' ');
        return cut < 0 ? quantity : quantity.substring(0, cut);
    }

    private static String singular(String quantity) {
        return switch (quantity) {
            case "eigenvalues" -> "eigenvalue";
            case "singularValues" -> "singular value";
            default -> "value of " + quantity;
        };
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length;
        return m % 2 == 1 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }

    /** A number as warnings print it: four significant digits. */
    public static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
