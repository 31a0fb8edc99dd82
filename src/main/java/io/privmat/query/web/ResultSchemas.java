package io.privmat.query.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.FactVocabulary;
import io.privmat.mechanism.catalog.IntervalSet;
import io.privmat.mechanism.completion.CompletionFacts;
import io.privmat.mechanism.regression.RegressionFacts;
import io.privmat.mechanism.catalog.ResultAccuracy;
import io.privmat.query.QueryResult;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.core.converter.ResolvedSchema;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The {@code QueryResult} schemas, written from the result records ({@link QueryResult}) rather than by
 * hand, so that a member added to a record is in the contract (docs/adr/0005-contract-from-types.md).
 * Each record component is one member, the {@code @JsonUnwrapped} parts inline, as Jackson writes
 * them; its Java type gives the schema's type, its {@code @Schema} the description, allowed values
 * or a reference; a member is required unless the component is {@code @Nullable} (or in a nullable
 * part), and typed {@code [T, "null"]} when a null is written rather than left out. A type the writer
 * does not know fails the start-up. Records outside the result family (the accuracy, warnings,
 * coefficients) are resolved by swagger-core's {@link ModelConverters}, as springdoc resolves every
 * other body; the pure-Java ones are described here, not annotated (docs/architecture.md).
 *
 * <p>Why not {@code ModelConverters} for the results too: one record ({@code Factors}) answers two
 * kinds with different members, {@code kind} lives in the shared {@code Head} but must be a one-value
 * enum per result schema (the discriminator), and a kept release's kind has different values per kind;
 * the converter would give one schema per class, to be taken apart again here.
 */
final class ResultSchemas {

    private static final String REF = "#/components/schemas/";

    /**
     * One result schema: the kind (the discriminator's value), the record that renders it, members the
     * record has but this kind never writes, and the values of {@code releaseKind} where it is written.
     */
    record Kind(String kind, Class<? extends QueryResult> type, Set<String> absent, List<String> releaseKinds,
            @Nullable String description) {

        String schemaName() {
            return CatalogueSchemas.pascal(kind) + "Result";
        }
    }

    /** Every result kind, in the order of the {@code oneOf}. */
    static final List<Kind> KINDS = List.of(
            new Kind("COLUMN_SUMS", QueryResult.ColumnSums.class, Set.of(), List.of(), null),
            new Kind("COVARIANCE", QueryResult.Covariance.class, Set.of("releaseKind"), List.of(), null),
            new Kind("PCA", QueryResult.Pca.class, Set.of(), List.of(), null),
            new Kind("LOW_RANK", QueryResult.Factors.class, Set.of(), List.of(), null),
            new Kind("TOP_SINGULAR_VECTORS", QueryResult.Factors.class, Set.of("rows", "uInline", "u"), List.of(),
                    "the top-k right singular vectors v (d × k) and the singular values s"),
            new Kind("SKETCH", QueryResult.Sketch.class, Set.of(), List.of("GRAPH_SKETCH", "MATRIX_SKETCH"), null),
            new Kind("REGRESSION", QueryResult.Regression.class, Set.of(), List.of(), null),
            // Only MATRIX datasets have column names: histograms have attributes, ratings item labels,
            // streams none.
            new Kind("LINEAR_QUERIES", QueryResult.LinearQueries.class, Set.of("columns"),
                    List.of("HISTOGRAM_ESTIMATE"), null),
            new Kind("COMPLETION", QueryResult.Completion.class, Set.of("columns"), List.of("COMPLETION_MODEL"),
                    null),
            new Kind("SUBSCRIPTION", QueryResult.Subscription.class, Set.of("columns"), List.of(), null));

    /** Descriptions of the pure-Java records a result holds (they may carry no annotations). */
    private static final Map<Class<?>, String> DESCRIBED = Map.of(
            ResultAccuracy.class, "Intervals and error bounds of the result at `level`, computed from the released "
                    + "values and public parameters only (docs/accuracy/intervals.md)",
            IntervalSet.class, "Intervals for the entries of one released quantity, each holding with probability "
                    + "≥ level on its own; each contains its estimate (clamped as `clamp` says where the truth is "
                    + "non-negative)");

    private ResultSchemas() {}

    /** Adds {@code QueryResult}, its members and the records they refer to. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static void register(Map<String, Schema> schemas, MechanismCatalog catalog) {
        Set<Class<?>> covered = new LinkedHashSet<>();
        KINDS.forEach(k -> covered.add(k.type()));
        Set<Class<?>> permitted = new LinkedHashSet<>(Arrays.asList(QueryResult.class.getPermittedSubclasses()));
        if (!covered.equals(permitted)) {
            throw new IllegalStateException("result records " + permitted + " but result schemas for " + covered);
        }
        // The facts documents only results hold (the plan's and releases' are written with the catalogue's).
        for (FactVocabulary v : List.of(RegressionFacts.VOCABULARY, CompletionFacts.VOCABULARY)) {
            schemas.putIfAbsent(v.name(), CatalogueSchemas.factsSchema(v, catalog));
        }
        ComposedSchema result = new ComposedSchema();
        Discriminator discriminator = new Discriminator().propertyName("kind");
        for (Kind k : KINDS) {
            ObjectSchema schema = schema(k, schemas);
            schema.getProperties().values().forEach(p -> {
                String ref = ((Schema) p).get$ref();
                if (ref != null && !schemas.containsKey(ref.substring(REF.length()))) {
                    throw new IllegalStateException(k.schemaName() + " refers to " + ref + ", which is not defined");
                }
            });
            schemas.put(k.schemaName(), schema);
            result.addOneOfItem(new Schema<>().$ref(REF + k.schemaName()));
            discriminator.mapping(k.kind(), REF + k.schemaName());
        }
        result.discriminator(discriminator).description("A query's result; its kind says which schema. The main array "
                + "is also served as application/x-npy.");
        schemas.put("QueryResult", result);
    }

    /** One kind's schema; {@code kind} is a required one-value enum (generators that try each member find one). */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static ObjectSchema schema(Kind k, Map<String, Schema> schemas) {
        ObjectSchema s = new ObjectSchema();
        io.swagger.v3.oas.annotations.media.Schema described = k.type()
                .getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
        String description = k.description() != null ? k.description()
                : described != null ? described.description() : "";
        s.description(k.kind() + ": " + description);
        s.required(new ArrayList<>());
        members(k.type(), false, k, s, schemas);
        for (String absent : k.absent()) {
            if (!writes(k.type(), absent)) {
                throw new IllegalStateException(k.schemaName() + ": " + absent + " is left out but "
                        + k.type().getSimpleName() + " has no such member");
            }
        }
        Schema kind = (Schema) s.getProperties().get("kind");
        kind.setEnum(new ArrayList<>(List.of(k.kind())));
        if (!s.getRequired().contains("kind")) {
            throw new IllegalStateException(k.schemaName() + ": kind, the discriminator, must always be written");
        }
        if (!k.releaseKinds().isEmpty()) {
            ((Schema) s.getProperties().get("releaseKind")).setEnum(new ArrayList<>(k.releaseKinds()));
        }
        return s;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void members(Class<?> record, boolean optionalPart, Kind k, ObjectSchema s,
            Map<String, Schema> schemas) {
        for (RecordComponent c : record.getRecordComponents()) {
            boolean nullable = nullable(c);
            // Jackson's and swagger's annotations do not target record components: they are on the accessor.
            Method accessor = c.getAccessor();
            io.swagger.v3.oas.annotations.media.Schema a = accessor
                    .getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
            if (accessor.isAnnotationPresent(JsonUnwrapped.class)) {
                // A nullable part is optional unless declared present in every served result.
                boolean served = a != null && a.requiredMode() == io.swagger.v3.oas.annotations.media.Schema
                        .RequiredMode.REQUIRED;
                members(c.getType(), optionalPart || nullable && !served, k, s, schemas);
                continue;
            }
            if (k.absent().contains(c.getName())) {
                continue;
            }
            if (s.getProperties() != null && s.getProperties().containsKey(c.getName())) {
                throw new IllegalStateException(record.getSimpleName() + "." + c.getName() + " is written twice");
            }
            Schema p = a != null && !a.ref().isEmpty() ? new Schema<>().$ref(a.ref()) : type(c.getAnnotatedType(),
                    record.getSimpleName() + "." + c.getName(), schemas);
            if (a != null && !a.description().isEmpty()) {
                p.description(a.description());
            }
            if (a != null && a.allowableValues().length > 0) {
                p.setEnum(new ArrayList<>(List.of(a.allowableValues())));
            }
            boolean writesNull = writesNull(c);
            if (writesNull) {
                orNull(p, record.getSimpleName() + "." + c.getName());
            }
            s.addProperty(c.getName(), p);
            if (!optionalPart && (!nullable || writesNull)) {
                s.addRequiredItem(c.getName());
            }
        }
    }

    /** Whether {@code record} (with its unwrapped parts) has a member called {@code name}. */
    private static boolean writes(Class<?> record, String name) {
        for (RecordComponent c : record.getRecordComponents()) {
            if (c.getAccessor().isAnnotationPresent(JsonUnwrapped.class) ? writes(c.getType(), name)
                    : c.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The schema of a Java type as the service's JSON writes it. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema type(AnnotatedType annotated, String where, Map<String, Schema> schemas) {
        if (annotated instanceof AnnotatedArrayType array) {
            return new ArraySchema().items(type(array.getAnnotatedGenericComponentType(), where, schemas));
        }
        if (annotated instanceof AnnotatedParameterizedType list && annotated.getType() instanceof
                java.lang.reflect.ParameterizedType pt && pt.getRawType() == List.class) {
            return new ArraySchema().items(type(list.getAnnotatedActualTypeArguments()[0], where, schemas));
        }
        if (!(annotated.getType() instanceof Class<?> t)) {
            throw new IllegalStateException(where + ": no schema for " + annotated.getType());
        }
        if (t == String.class) {
            return new StringSchema();
        }
        if (t == UUID.class) {
            return new StringSchema().format("uuid");
        }
        if (t == double.class || t == Double.class) {
            return new NumberSchema().format("double");
        }
        if (t == int.class || t == Integer.class) {
            return new IntegerSchema();
        }
        if (t == long.class || t == Long.class) {
            return new IntegerSchema().format("int64");
        }
        if (t == boolean.class || t == Boolean.class) {
            return new BooleanSchema();
        }
        if (t.isRecord() && t.getPackageName().startsWith("io.privmat.")) {
            return new Schema<>().$ref(REF + resolved(t, schemas));
        }
        throw new IllegalStateException(where + ": no schema for " + t.getName() + " (give it @Schema(ref))");
    }

    private static boolean nullable(RecordComponent c) {
        return !c.getType().isPrimitive() && c.getAnnotatedType().isAnnotationPresent(Nullable.class);
    }

    /** Whether Jackson writes the component's null (rather than leaving the member out). */
    private static boolean writesNull(RecordComponent c) {
        JsonInclude inclusion = c.getAccessor().isAnnotationPresent(JsonInclude.class)
                ? c.getAccessor().getAnnotation(JsonInclude.class)
                : c.getDeclaringRecord().getAnnotation(JsonInclude.class);
        return nullable(c) && (inclusion == null || inclusion.value() == JsonInclude.Include.ALWAYS);
    }

    /** Adds {@code "null"} to a typed schema's types. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void orNull(Schema p, String where) {
        Set<String> types = new LinkedHashSet<>();
        if (p.getTypes() != null) {
            types.addAll(p.getTypes());
        } else if (p.getType() != null) {
            types.add(p.getType());
        } else {
            throw new IllegalStateException(where + ": a null written in place of a reference is not described");
        }
        types.add("null");
        p.setTypes(types);
    }

    /**
     * Marks the members of a resolved record (and of the records it holds) that Jackson writes as null:
     * swagger-core does not read JSpecify's {@code @Nullable}.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void nulls(Class<?> record, Map<String, Schema> schemas, Set<Class<?>> seen) {
        if (!record.isRecord() || !seen.add(record)) {
            return;
        }
        io.swagger.v3.oas.annotations.media.Schema named = record
                .getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
        Schema s = schemas.get(named != null && !named.name().isEmpty() ? named.name() : record.getSimpleName());
        for (RecordComponent c : record.getRecordComponents()) {
            if (s != null && s.getProperties() != null && s.getProperties().get(c.getName()) != null
                    && writesNull(c)) {
                orNull((Schema) s.getProperties().get(c.getName()), record.getSimpleName() + "." + c.getName());
            }
            Class<?> held = c.getType().isArray() ? c.getType().getComponentType() : c.getType();
            if (c.getGenericType() instanceof java.lang.reflect.ParameterizedType pt
                    && pt.getActualTypeArguments()[0] instanceof Class<?> element) {
                held = element;
            }
            nulls(held, schemas, seen);
        }
    }

    /** A record outside the result family, resolved by swagger-core and added where missing; its name. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static String resolved(Class<?> type, Map<String, Schema> schemas) {
        ResolvedSchema r = ModelConverters.getInstance(true)
                .resolveAsResolvedSchema(new io.swagger.v3.core.converter.AnnotatedType(type));
        r.referencedSchemas.forEach(schemas::putIfAbsent);
        String name = r.schema.getName();
        schemas.putIfAbsent(name, r.schema);
        nulls(type, schemas, new java.util.HashSet<>());
        DESCRIBED.forEach((described, description) -> {
            if (schemas.containsKey(described.getSimpleName())) {
                schemas.get(described.getSimpleName()).description(description);
            }
        });
        return name;
    }
}
