package io.privmat.query.web;

import io.privmat.mechanism.catalog.WorkloadParam;
import io.privmat.mechanism.linear.LinearLimits;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.ComposedSchema;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The typed {@code params.workload} of LINEAR_QUERIES ({@link WorkloadParam}): {@code LinearWorkload}
 * is a {@code oneOf} discriminated by {@code type}, one closed object per workload type.
 */
final class LinearWorkloadSchemas {

    private static final String REF = "#/components/schemas/";

    private LinearWorkloadSchemas() {}

    @SuppressWarnings({"rawtypes", "unchecked"})
    static void register(Map<String, Schema> schemas) {
        Map<String, Schema> types = new java.util.LinkedHashMap<>();
        types.put("IDENTITY", object("IDENTITY", "Every cell of the histogram (n queries)."));
        types.put("PREFIX", object("PREFIX", "Prefix counts [0, v] on the listed attributes (all when omitted; "
                + "k-D prefixes on several), every other attribute summed out.")
                .addProperty("attributes", attributes("attributes with prefixes; omitted: all")));
        types.put("ALL_RANGE", object("ALL_RANGE", "Every interval [lo, hi] on the listed attributes (all when "
                + "omitted; every k-D box on several), every other attribute summed out. Query order: by lo, then hi.")
                .addProperty("attributes", attributes("attributes with ranges; omitted: all")));
        Schema interval = new ArraySchema().items(new IntegerSchema().minimum(BigDecimal.ZERO)).minItems(2).maxItems(2)
                .description("[lo, hi]: inclusive value codes, 0 ≤ lo ≤ hi < the attribute's size");
        ObjectSchema box = new ObjectSchema();
        box.additionalProperties(interval);
        box.description("One box: attribute name → [lo, hi]; attributes not named span their whole domain");
        Map<String, List<Integer>> boxExample = new java.util.LinkedHashMap<>(); // ordered: compared as text
        boxExample.put("age", List.of(0, 3));
        boxExample.put("region", List.of(1, 1));
        box.example(io.swagger.v3.core.util.Json.mapper().valueToTree(boxExample)); // an object, not its toString
        types.put("RANGES", object("RANGES", "An explicit list of boxes (at most " + WorkloadParam.MAX_INLINE_BOXES
                + "; larger lists as a CUSTOM workload), in the order given.")
                .addProperty("boxes", new ArraySchema().items(box).minItems(1).maxItems(WorkloadParam.MAX_INLINE_BOXES)));
        types.get("RANGES").getRequired().add("boxes");
        types.put("MARGINALS", object("MARGINALS", "Marginal counts: every k-way marginal (k), or the listed "
                + "attribute sets (sets), each a full table over its attributes with the others summed out. Give k or "
                + "sets, not both.")
                .addProperty("k", new IntegerSchema().minimum(BigDecimal.ZERO)
                        .maximum(BigDecimal.valueOf(LinearLimits.MAX_ATTRIBUTES)).description("every k-way marginal"))
                .addProperty("sets", new ArraySchema().items(attributes("one attribute set")).minItems(1).maxItems(256)
                        .description("attribute sets, each a marginal")));
        types.put("CUSTOM", object("CUSTOM", "A workload matrix uploaded to /v1/workloads (one row per query, one "
                + "column per cell in row-major order). A stored plan records its sha256, rows and cols; a request may "
                + "give sha256 to pin the content.")
                .addProperty("id", new StringSchema().format("uuid").description("the workload's id"))
                .addProperty("sha256", new StringSchema().pattern("^[0-9a-f]{64}$").description("the workload's "
                        + "SHA-256 (refused if it differs)"))
                .addProperty("rows", new IntegerSchema().minimum(BigDecimal.ONE).description("queries (stored plans)"))
                .addProperty("cols", new IntegerSchema().minimum(BigDecimal.ONE).description("cells (stored plans)")));
        types.get("CUSTOM").getRequired().add("id");
        ComposedSchema workload = new ComposedSchema();
        Discriminator discriminator = new Discriminator().propertyName("type");
        types.forEach((type, schema) -> {
            String name = CatalogueSchemas.pascal(type) + "Workload";
            schemas.put(name, schema);
            workload.addOneOfItem(new Schema<>().$ref(REF + name));
            discriminator.mapping(type, REF + name);
        });
        workload.discriminator(discriminator);
        workload.description("A batch of linear counting queries over a HISTOGRAM dataset's cells, by type. Attribute "
                + "names and value codes are checked against the dataset's declared domain (400 naming "
                + "params.workload…; 422 workload-too-large over a size limit).");
        Map<String, Object> workloadExample = new java.util.LinkedHashMap<>();
        workloadExample.put("type", "ALL_RANGE");
        workloadExample.put("attributes", List.of("age"));
        workload.example(workloadExample);
        schemas.put("LinearWorkload", workload);
        // The strategy request names the same workload; its Map-typed field is published as the typed ref.
        Schema strategyParams = schemas.get("StrategyParams");
        if (strategyParams != null && strategyParams.getProperties() != null
                && strategyParams.getProperties().containsKey("workload")) {
            strategyParams.getProperties().put("workload", new Schema<>().$ref(REF + "LinearWorkload"));
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static ObjectSchema object(String type, String description) {
        ObjectSchema s = new ObjectSchema();
        s.description(description);
        s.additionalProperties(false);
        s.addProperty("type", new StringSchema()._enum(List.of(type)));
        s.required(new ArrayList<>(List.of("type")));
        return s;
    }

    private static ArraySchema attributes(String description) {
        ArraySchema a = new ArraySchema();
        a.items(new StringSchema());
        a.minItems(1);
        a.maxItems(LinearLimits.MAX_ATTRIBUTES);
        a.uniqueItems(true);
        a.description(description);
        return a;
    }
}
