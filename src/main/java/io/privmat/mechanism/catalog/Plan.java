package io.privmat.mechanism.catalog;

import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.PrivacyLoss;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A mechanism calibrated for one query: its canonical spec, its privacy map, the public facts about
 * its noise, the input it reads, and the release that reads it. Made only from public parameters.
 */
public final class Plan {

    /** The data-touching step of a calibrated mechanism. */
    @FunctionalInterface
    public interface Releaser {
        Release release(DataAccess data, NoiseSource random);
    }

    private final MechanismSpec spec;
    private final PrivacyMap privacy;
    private final Map<String, Object> noise;
    private final Input input;
    private final Releaser releaser;

    /** @throws IllegalArgumentException when a noise fact is not declared in {@link FactVocabulary#NOISE} */
    public Plan(MechanismSpec spec, PrivacyMap privacy, Map<String, Object> noise, Input input, Releaser releaser) {
        this.spec = spec;
        this.privacy = privacy;
        Map<String, Object> facts = new LinkedHashMap<>(noise);
        if (facts.get("granularity") instanceof Number g && !facts.containsKey("saturation")) {
            // Every release on a grid saturates its statistic at ±2⁵⁰ steps (GridNoise.roundToGrid): the
            // level is public, so the plan states it (docs/mechanisms/noise.md, "Saturation").
            facts.put("saturation", GridNoise.LIMIT_STEPS * g.doubleValue());
        }
        FactVocabulary.NOISE.check(facts);
        this.noise = Collections.unmodifiableMap(facts);
        this.input = input;
        this.releaser = releaser;
    }

    public MechanismSpec spec() {
        return spec;
    }

    public PrivacyMap privacy() {
        return privacy;
    }

    /** The loss as the mechanism runs. */
    public PrivacyLoss mechanismLoss() {
        return privacy.asRun();
    }

    /** What the dataset's ledger charges (its accounting mode is part of the spec's facts). */
    public PrivacyLoss chargedLoss() {
        return privacy.charged(spec.facts().mode());
    }

    /** Public facts about the noise (σ or scale, granularity, sensitivity, …), as declared in {@link FactVocabulary#NOISE}. */
    public Map<String, Object> noise() {
        return noise;
    }

    public Input input() {
        return input;
    }

    /** Reads the data through {@code data} and releases; the only step that touches data. */
    public Release release(DataAccess data, NoiseSource random) {
        return releaser.release(data, random);
    }
}
