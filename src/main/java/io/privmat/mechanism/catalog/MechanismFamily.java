package io.privmat.mechanism.catalog;

import java.util.List;

/**
 * A parameterised family of catalogue values (the linear-query mechanisms, the completions, the
 * entry-level low-rank values): one class that provides several {@link MechanismDefinition}s. A
 * family is listed once in {@code META-INF/services/io.privmat.mechanism.catalog.MechanismFamily};
 * {@link MechanismCatalog#load} adds its values in this order. A provider has a public no-argument
 * constructor.
 */
public interface MechanismFamily {

    /** The family's values, in catalogue order. */
    List<MechanismDefinition> definitions();
}
