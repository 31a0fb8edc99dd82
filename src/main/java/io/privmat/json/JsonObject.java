package io.privmat.json;

import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * An ordered, immutable JSON object: the members of a value whose names are its own (request
 * parameters, a problem's extension members). Members were frozen by {@link JsonValues}; a subclass
 * adds its factories and what its values mean. Equal when of the same class with equal members.
 */
public abstract class JsonObject {

    private final Map<String, @Nullable Object> members;

    /** {@code members} already frozen ({@link JsonValues#object}, {@link JsonValues#with}). */
    protected JsonObject(Map<String, @Nullable Object> members) {
        this.members = members;
    }

    /** The frozen members, for a subclass building a changed copy. */
    protected final Map<String, @Nullable Object> members() {
        return members;
    }

    /** True if {@code name} is a member (with any value, null too). */
    public final boolean has(String name) {
        return members.containsKey(name);
    }

    /** The member's value, or null when absent or null. */
    public final @Nullable Object get(String name) {
        return members.get(name);
    }

    /** The members' names, in order. */
    public final Set<String> names() {
        return members.keySet();
    }

    public final boolean isEmpty() {
        return members.isEmpty();
    }

    /** Each member in order. */
    public final void forEach(BiConsumer<String, @Nullable Object> action) {
        members.forEach(action);
    }

    /** The members as a read-only JSON object (for writers). */
    public final Map<String, ?> asMap() {
        return members;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && members.equals(((JsonObject) o).members);
    }

    @Override
    public final int hashCode() {
        return members.hashCode();
    }

    @Override
    public final String toString() {
        return members.toString();
    }
}
