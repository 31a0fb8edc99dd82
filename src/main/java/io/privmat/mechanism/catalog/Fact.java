package io.privmat.mechanism.catalog;

import java.util.Objects;

/**
 * One declared public fact: its name in the rendered document, its JSON type, what it means, and the
 * vocabulary it belongs to. Declared once as a constant ({@link NoiseFacts},
 * {@link io.privmat.mechanism.lowrank.FactorizationFacts}, {@link ReleaseMeta}); the code reads and
 * writes facts through the constant, and the served schema of the vocabulary lists the same constants.
 * A name whose meaning differs between vocabularies is a constant in each.
 *
 * @param <T> the Java type of the value: Double for NUMBER, Integer or Long for INTEGER, String, Boolean
 */
public final class Fact<T> {

    private final FactVocabulary vocabulary;
    private final String name;
    private final FactVocabulary.Type type;
    private final Class<T> javaType;
    private final String description;

    Fact(FactVocabulary vocabulary, String name, FactVocabulary.Type type, Class<T> javaType, String description) {
        this.vocabulary = vocabulary;
        this.name = Objects.requireNonNull(name);
        this.type = type;
        this.javaType = javaType;
        this.description = description;
    }

    public FactVocabulary vocabulary() {
        return vocabulary;
    }

    public String name() {
        return name;
    }

    public FactVocabulary.Type type() {
        return type;
    }

    public Class<T> javaType() {
        return javaType;
    }

    public String description() {
        return description;
    }

    /**
     * The value of this fact read from a parsed JSON document (a number of another width is converted).
     *
     * @throws IllegalArgumentException when the value does not have this fact's type
     */
    T fromJson(Object value) {
        Object converted = value;
        if (value instanceof Number n && !javaType.isInstance(value)) {
            if (javaType == Double.class && type == FactVocabulary.Type.NUMBER) {
                converted = n.doubleValue();
            } else if (javaType == Long.class && isIntegral(n)) {
                converted = n.longValue();
            } else if (javaType == Integer.class && isIntegral(n) && n.longValue() == n.intValue()) {
                converted = n.intValue();
            }
        }
        if (!javaType.isInstance(converted)) {
            throw new IllegalArgumentException(vocabulary.name() + ": fact '" + name + "' must be " + type + ", was "
                    + (value == null ? "null" : value.getClass().getSimpleName()));
        }
        return javaType.cast(converted);
    }

    private static boolean isIntegral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
                || n instanceof java.math.BigInteger bi && bi.bitLength() < 64;
    }

    /**
     * What this fact means for one mechanism, declared by the mechanism that writes it
     * ({@link MechanismDefinition#factNotes}): the served description is the vocabulary's own text
     * followed by the notes of the catalogue's mechanisms ({@link MechanismCatalog#description}).
     */
    public Note note(String text) {
        return new Note(this, text);
    }

    /**
     * The part of a fact's served description a mechanism declares (e.g. "ITS_NAME: what the value is
     * for it"), so that the vocabulary, shared by every mechanism, names none.
     */
    public record Note(Fact<?> fact, String text) {
        public Note {
            Objects.requireNonNull(fact);
            if (text.isBlank()) {
                throw new IllegalArgumentException("a note on " + fact + " must say something");
            }
        }
    }

    @Override
    public String toString() {
        return vocabulary.name() + "." + name;
    }
}
