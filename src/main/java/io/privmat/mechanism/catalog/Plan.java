package io.privmat.mechanism.catalog;

import io.privmat.mechanism.noise.GridNoise;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.privacy.PrivacyLoss;

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
    private final Facts noise;
    private final Input input;
    private final Releaser releaser;

    /** @throws IllegalArgumentException when the noise facts are not {@link NoiseFacts} or a number is not finite */
    public Plan(MechanismSpec spec, PrivacyMap privacy, Facts noise, Input input, Releaser releaser) {
        this.spec = spec;
        this.privacy = privacy;
        Facts facts = noise;
        Double g = facts.find(NoiseFacts.GRANULARITY);
        if (g != null && !facts.has(NoiseFacts.SATURATION)) {
            // Every release on a grid saturates its statistic at ±2⁵⁰ steps (GridNoise.roundToGrid): the
            // level is public, so the plan states it (docs/mechanisms/noise.md, "Saturation").
            facts = facts.with(NoiseFacts.SATURATION, GridNoise.LIMIT_STEPS * g);
        }
        NoiseFacts.VOCABULARY.check(facts);
        this.noise = facts;
        this.input = input;
        this.releaser = releaser;
    }

    /** The same, the noise facts still being built. */
    public Plan(MechanismSpec spec, PrivacyMap privacy, Facts.Builder noise, Input input, Releaser releaser) {
        this(spec, privacy, noise.build(), input, releaser);
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

    /** Public facts about the noise (σ or scale, granularity, sensitivity, …), declared in {@link NoiseFacts}. */
    public Facts noise() {
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
