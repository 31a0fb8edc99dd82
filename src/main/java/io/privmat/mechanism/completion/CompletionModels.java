package io.privmat.mechanism.completion;

import io.privmat.mechanism.catalog.Facts;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.catalog.Params;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PublicFacts;
import java.util.Arrays;

/**
 * A COMPLETION job's global model as stored values and back: the service keeps the release so that
 * the data owner's predictions (each user's row from the model and that user's own ratings) can be
 * computed on demand, without storing an m × n matrix (docs/mechanisms/completion.md, "Delivery").
 */
public final class CompletionModels {

    private CompletionModels() {}

    /** FRANK_WOLFE (T directions of n, then λ̂, then λ̂′), SVD (n × r directions, then r eigenvalues) or ALS (n × r). */
    public static String kind(CompletionModel model) {
        return model instanceof FrankWolfeRelease ? "FRANK_WOLFE" : model instanceof SvdCompletionRelease ? "SVD" : "ALS";
    }

    /** The released values, flattened in the order {@link #kind} names. */
    public static double[] values(CompletionModel model) {
        if (model instanceof FrankWolfeRelease f) {
            return concat(f.directions(), f.lambdaHat(), f.lambdaPrime());
        }
        if (model instanceof SvdCompletionRelease s) {
            return concat(s.directions(), s.eigenvalues());
        }
        return ((AlsRelease) model).itemFactors().clone();
    }

    /** Public facts of the run (noise scales, bounds), as the model carries them. */
    public static Facts facts(CompletionModel model) {
        if (model instanceof FrankWolfeRelease f) {
            return f.facts();
        }
        if (model instanceof SvdCompletionRelease s) {
            return s.facts();
        }
        return ((AlsRelease) model).facts();
    }

    /**
     * The model a plan released, from its stored values and facts.
     *
     * @throws IllegalArgumentException when the values do not fit the plan
     */
    public static CompletionModel restore(Plan plan, double[] values, Facts facts) {
        Params p = plan.spec().params();
        PublicFacts f = plan.spec().facts();
        int n = f.cols();
        return switch (plan.spec().mechanism()) {
            case "PRIVATE_FRANK_WOLFE" -> {
                var params = Completions.FrankWolfe.parameters(p, f, plan.spec().budget());
                int t = params.iterations();
                require(values, t * n + 2 * t);
                // The noise bound the warnings compare with is the plan's (public); a stored model's facts may lack it.
                Facts known = facts;
                Double bound = plan.noise().find(NoiseFacts.NOISE_SPECTRAL_BOUND);
                if (!facts.has(CompletionFacts.NOISE_SPECTRAL_BOUND) && bound != null) {
                    known = facts.with(CompletionFacts.NOISE_SPECTRAL_BOUND, bound);
                }
                yield new FrankWolfeRelease(params, Arrays.copyOfRange(values, 0, t * n),
                        Arrays.copyOfRange(values, t * n, t * n + t), Arrays.copyOfRange(values, t * n + t, t * n + 2 * t),
                        known);
            }
            case "PRIVATE_SVD" -> {
                var params = Completions.Svd.parameters(p, f);
                int r = params.rank();
                require(values, n * r + r);
                yield new SvdCompletionRelease(params, Arrays.copyOfRange(values, 0, n * r),
                        Arrays.copyOfRange(values, n * r, n * r + r), facts);
            }
            case "DP_ALS" -> {
                var params = Completions.Als.parameters(p, f);
                require(values, n * params.rank());
                yield new AlsRelease(params, values.clone(), facts);
            }
            default -> throw new IllegalArgumentException("not a completion mechanism: " + plan.spec().mechanism());
        };
    }

    private static void require(double[] values, int length) {
        if (values.length != length) {
            throw new IllegalArgumentException("stored model has " + values.length + " values, expected " + length);
        }
    }

    private static double[] concat(double[]... parts) {
        int total = 0;
        for (double[] p : parts) {
            total += p.length;
        }
        double[] out = new double[total];
        int at = 0;
        for (double[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
