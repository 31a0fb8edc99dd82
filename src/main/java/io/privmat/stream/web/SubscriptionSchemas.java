package io.privmat.stream.web;

import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.NoiseFacts;
import io.privmat.mechanism.window.WindowFactorization;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The typed subscription contract, written from the mechanism catalogue: {@code SubscriptionRequest}
 * is a {@code oneOf} over the window mechanisms (those whose only shape is STREAM), discriminated by
 * {@code mechanism}, each variant the mechanism's request schema the query contract also publishes
 * ({@code <Mechanism>Query}, with its typed {@code <Mechanism>Params}); the noise facts of
 * subscriptions and their quotes are typed as {@code NoiseFacts}; a subscription's {@code mechanism}
 * lists the same window mechanisms.
 */
@Configuration(proxyBeanMethods = false)
class SubscriptionSchemas {

    private static final String REF = "#/components/schemas/";

    @Bean
    OpenApiCustomizer subscriptionSchemasCustomizer(MechanismCatalog catalog) {
        return openApi -> {
            @SuppressWarnings("rawtypes")
            Map<String, Schema> schemas = openApi.getComponents().getSchemas();
            ComposedSchema request = new ComposedSchema();
            Discriminator discriminator = new Discriminator().propertyName("mechanism");
            List<MechanismDefinition> windows = windowMechanisms(catalog);
            for (MechanismDefinition m : windows) {
                String ref = REF + pascal(m.name()) + "Query";
                request.addOneOfItem(new Schema<>().$ref(ref));
                discriminator.mapping(m.name(), ref);
            }
            request.discriminator(discriminator);
            request.description("A standing query on a stream: the window mechanism (the discriminator), the kind it "
                    + "answers over each window (COVARIANCE, PCA or SKETCH), its budget for the whole stream (rho, or "
                    + "epsilon with delta) and its typed params. The cost is computed from these public values and the "
                    + "stream's declaration, and charged once.");
            String example = windows.stream().filter(WindowFactorization.class::isInstance).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the catalogue has no Toeplitz factorisation"))
                    .name();
            request.example(Json.mapper().valueToTree(new SubscriptionController.SubscriptionRequest("COVARIANCE",
                    example, null, null, new BigDecimal("0.005"), null)));
            schemas.put("SubscriptionRequest", request);
            enumerate(schemas, "Subscription", "mechanism", windows.stream().map(MechanismDefinition::name).toList());
            refer(schemas, "Subscription", "noise");
            refer(schemas, "SubscriptionQuote", "noise");
        };
    }

    /** The mechanisms that answer standing queries on streams only. */
    static List<MechanismDefinition> windowMechanisms(MechanismCatalog catalog) {
        return catalog.all().stream().filter(m -> m.shapes().equals(java.util.Set.of(DataShape.STREAM)))
                .toList();
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void enumerate(Map<String, Schema> schemas, String schema, String property, List<String> values) {
        properties(schemas, schema, property).get(property).setEnum(values);
    }

    @SuppressWarnings("rawtypes")
    private static void refer(Map<String, Schema> schemas, String schema, String property) {
        properties(schemas, schema, property).put(property, new Schema<>().$ref(REF + NoiseFacts.VOCABULARY.name())
                .description("Public facts about the noise"));
    }

    /** The properties of {@code schema}, which must hold {@code property}. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Map<String, Schema> properties(Map<String, Schema> schemas, String schema, String property) {
        Schema owner = schemas.get(schema);
        if (owner == null || owner.getProperties() == null || !owner.getProperties().containsKey(property)) {
            throw new IllegalStateException(schema + "." + property + " is not in the contract");
        }
        return owner.getProperties();
    }

    static String pascal(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.toLowerCase(Locale.ROOT).split("_")) {
            out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return out.toString();
    }
}
