package io.privmat.mechanism.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A named list of declared public {@link Fact}s: the noise facts of a plan ({@link NoiseFacts}), the
 * facts of a factorisation ({@link io.privmat.mechanism.lowrank.FactorizationFacts}) and the metadata of a stored release
 * ({@link ReleaseMeta}). Declared as data, like {@link Param}, so that the served contract types each
 * document from the same constants the code reads and writes: a plan's noise facts are checked when
 * it is made ({@link Plan}), and the mechanism contract tests check every release's facts and
 * metadata. A mechanism that needs a new fact adds a constant to the vocabulary's class, in words
 * that fit every mechanism (or none, when only the mechanisms' notes describe it), and states what the
 * fact means for itself in {@link MechanismDefinition#factNotes}: the vocabularies name no mechanism.
 */
public final class FactVocabulary {

    /** The JSON type of a fact. */
    public enum Type {
        NUMBER, INTEGER, STRING, BOOLEAN
    }

    private final String name;
    private final String description;
    private final Map<String, Fact<?>> fields = new LinkedHashMap<>();

    public FactVocabulary(String name, String description) {
        this.name = name;
        this.description = description;
    }

    /** The schema name of this document in the served contract. */
    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** The declared facts in their order. */
    public List<Fact<?>> fields() {
        return List.copyOf(fields.values());
    }

    /** The fact declared under {@code name}, or null. */
    public @Nullable Fact<?> fact(String name) {
        return fields.get(name);
    }

    /**
     * Checks facts against the vocabulary: they are its own (their types hold by construction) and
     * every number is finite.
     *
     * @throws IllegalArgumentException naming the first fact that is of another vocabulary or not finite
     */
    public void check(Facts facts) {
        if (facts.vocabulary() != this) {
            throw new IllegalArgumentException(facts.vocabulary().name() + " checked as " + name);
        }
        for (Facts.Entry<?> e : facts.entries()) {
            if (e.value() instanceof Double d && !Double.isFinite(d)) {
                throw new IllegalArgumentException(name + ": fact '" + e.name() + "' must be NUMBER, was " + d);
            }
        }
    }

    public Fact<Double> number(String name, String description) {
        return declare(name, Type.NUMBER, Double.class, description);
    }

    public Fact<Integer> integer(String name, String description) {
        return declare(name, Type.INTEGER, Integer.class, description);
    }

    Fact<Long> longInteger(String name, String description) {
        return declare(name, Type.INTEGER, Long.class, description);
    }

    Fact<Boolean> bool(String name, String description) {
        return declare(name, Type.BOOLEAN, Boolean.class, description);
    }

    public Fact<String> string(String name, String description) {
        return declare(name, Type.STRING, String.class, description);
    }

    private <T> Fact<T> declare(String factName, Type type, Class<T> javaType, String factDescription) {
        Fact<T> f = new Fact<>(this, factName, type, javaType, factDescription);
        if (fields.putIfAbsent(factName, f) != null) {
            throw new IllegalArgumentException("fact " + factName + " declared twice in " + name);
        }
        return f;
    }
}
