package io.privmat.mechanism.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Public facts of one vocabulary, typed by their {@link Fact} constants and kept in the order they
 * were put (the order they are rendered in). Immutable; {@link #with} and {@link #toBuilder} make
 * changed copies (e.g. the shrinkage facts post-processing adds). Rendered to JSON by the api layer,
 * parsed back from a stored document by {@link #parse}. It has no bean getters: a JSON mapper
 * without that serializer writes it as {@code {}}, so every mapper that writes facts must carry it.
 */
public final class Facts {

    /** One fact and its value. */
    public record Entry<T>(Fact<T> fact, T value) {
        public String name() {
            return fact.name();
        }
    }

    private final FactVocabulary vocabulary;
    private final Map<Fact<?>, Object> values;

    private Facts(FactVocabulary vocabulary, Map<Fact<?>, Object> values) {
        this.vocabulary = vocabulary;
        this.values = Collections.unmodifiableMap(values);
    }

    /** No facts of the vocabulary. */
    public static Facts empty(FactVocabulary vocabulary) {
        return new Facts(vocabulary, new LinkedHashMap<>());
    }

    public static Builder builder(FactVocabulary vocabulary) {
        return new Builder(vocabulary, new LinkedHashMap<>());
    }

    /**
     * Facts read back from a stored JSON document (a release's metadata): every key must be a fact of
     * the vocabulary and its value of the fact's type; numbers of another width are converted.
     *
     * @throws IllegalArgumentException naming the first key that is not declared or has the wrong type
     */
    public static Facts parse(FactVocabulary vocabulary, Map<String, ?> document) {
        Builder b = builder(vocabulary);
        document.forEach((key, value) -> {
            Fact<?> fact = vocabulary.fact(key);
            if (fact == null) {
                throw new IllegalArgumentException(vocabulary.name() + ": fact '" + key
                        + "' is not declared in the vocabulary");
            }
            b.putParsed(fact, value);
        });
        return b.build();
    }

    public FactVocabulary vocabulary() {
        return vocabulary;
    }

    /**
     * The value of a fact this code knows the facts hold (planning code reading its own plan's facts).
     *
     * @throws IllegalStateException when the fact is absent: a bug, not an input error
     */
    public <T> T get(Fact<T> fact) {
        T value = find(fact);
        if (value == null) {
            throw new IllegalStateException(vocabulary.name() + " has no fact '" + fact.name() + "'");
        }
        return value;
    }

    /** The value of a fact, or null when absent. */
    public <T> @Nullable T find(Fact<T> fact) {
        Object value = values.get(fact);
        return value == null ? null : fact.fromJson(value);
    }

    public boolean has(Fact<?> fact) {
        return values.containsKey(fact);
    }

    public int size() {
        return values.size();
    }

    /** These facts and {@code fact}: a new fact goes last, a present one keeps its place. */
    public <T> Facts with(Fact<T> fact, T value) {
        return toBuilder().put(fact, value).build();
    }

    /** A builder holding these facts, to add more. */
    public Builder toBuilder() {
        return new Builder(vocabulary, new LinkedHashMap<>(values));
    }

    /** The facts in order. */
    public List<Entry<?>> entries() {
        List<Entry<?>> out = new ArrayList<>(values.size());
        values.forEach((fact, value) -> out.add(entry(fact, value)));
        return out;
    }

    /**
     * Each fact's name and value in order (what a JSON rendering writes). A parsed fact keeps the
     * number it was read as (a stored document renders as it was read; typed reads convert it).
     */
    public void forEach(BiConsumer<String, Object> action) {
        values.forEach((fact, value) -> action.accept(fact.name(), value));
    }

    private static <T> Entry<T> entry(Fact<T> fact, Object value) {
        return new Entry<>(fact, fact.fromJson(value));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Facts f && f.vocabulary == vocabulary && f.values.equals(values)
                && List.copyOf(f.values.keySet()).equals(List.copyOf(values.keySet()));
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(vocabulary.name()).append('{');
        forEach((name, value) -> out.append(out.charAt(out.length() - 1) == '{' ? "" : ", ").append(name).append('=')
                .append(value));
        return out.append('}').toString();
    }

    /** Builds facts in the order they are put. */
    public static final class Builder {
        private final FactVocabulary vocabulary;
        private final Map<Fact<?>, Object> values;

        private Builder(FactVocabulary vocabulary, Map<Fact<?>, Object> values) {
            this.vocabulary = vocabulary;
            this.values = values;
        }

        /**
         * Sets a fact (a present one keeps its place).
         *
         * @throws IllegalArgumentException when the fact belongs to another vocabulary (a bug)
         */
        public <T> Builder put(Fact<T> fact, T value) {
            if (fact.vocabulary() != vocabulary) {
                throw new IllegalArgumentException(fact + " is not a fact of " + vocabulary.name());
            }
            values.put(fact, fact.javaType().cast(java.util.Objects.requireNonNull(value, fact.name())));
            return this;
        }

        /** Sets every fact of {@code facts} (of the same vocabulary), in their order. */
        public Builder putAll(Facts facts) {
            facts.entries().forEach(this::putEntry);
            return this;
        }

        public boolean has(Fact<?> fact) {
            return values.containsKey(fact);
        }

        public <T> @Nullable T find(Fact<T> fact) {
            Object value = values.get(fact);
            return value == null ? null : fact.fromJson(value);
        }

        private <T> void putEntry(Entry<T> e) {
            put(e.fact(), e.value());
        }

        /** Checks the value's type and keeps it as read (a decimal stays the decimal the document holds). */
        private void putParsed(Fact<?> fact, Object value) {
            fact.fromJson(value);
            values.put(fact, value);
        }

        public Facts build() {
            return new Facts(vocabulary, new LinkedHashMap<>(values));
        }
    }
}
