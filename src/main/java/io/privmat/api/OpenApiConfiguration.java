package io.privmat.api;

import io.privmat.problem.ProblemType;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document's header and the problem-details schema; the paths come from the controllers. */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String BEARER = "apiKey";
    private static final String TRACKS = "TrackView";

    @Bean
    OpenAPI privmatOpenApi() {
        return new OpenAPI()
                .info(new Info().title("privmat")
                        .version("v1")
                        .description("Privacy-budgeted matrix analytics. Data owners upload matrices and graphs "
                                + "with a differential-privacy budget; analysts receive only outputs of published "
                                + "DP mechanisms, each charged to the budget. Errors are RFC 9457 problem details "
                                + "with types under " + ProblemType.BASE_URI + ".")
                        .license(new License().name("Apache-2.0").identifier("Apache-2.0")))
                .servers(List.of(new Server().url("/").description("this server")))
                .components(new io.swagger.v3.oas.models.Components().addSecuritySchemes(BEARER,
                        new io.swagger.v3.oas.models.security.SecurityScheme()
                                .type(io.swagger.v3.oas.models.security.SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("An API key from POST /v1/api-keys (or the bootstrap admin key), sent as "
                                        + "'Authorization: Bearer <key>'.")))
                .addSecurityItem(new io.swagger.v3.oas.models.security.SecurityRequirement().addList(BEARER));
    }

    /**
     * Every error response is {@code application/problem+json} with the {@code Problem} schema;
     * success responses are {@code application/json} only.
     */
    @Bean
    OpenApiCustomizer problemDetailsCustomizer() {
        return openApi -> {
            openApi.getComponents().addSchemas("Problem", problemSchema());
            if (openApi.getComponents().getSchemas().get(TRACKS) == null) {
                openApi.getComponents().addSchemas(TRACKS, tracksSchema());
            }
            openApi.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                if (operation.getResponses() == null) {
                    return;
                }
                // Every operation needs a key and is rate limited.
                operation.getResponses().putIfAbsent("401", new ApiResponse().description("No, or an invalid, API key"));
                operation.getResponses().putIfAbsent("403", new ApiResponse().description("The key's role may not call this"));
                operation.getResponses().putIfAbsent("429", new ApiResponse().description("Rate limit, or a quota of free "
                        + "computations, exceeded (Retry-After)"));
                // Any operation may find the database unavailable (docs/reliability.md).
                operation.getResponses().putIfAbsent("503", new ApiResponse().description("The database is "
                        + "unavailable or overloaded right now (Retry-After)"));
                operation.getResponses().forEach((code, response) -> fix(code, response));
            }));
        };
    }

    private static void fix(String code, ApiResponse response) {
        boolean error = code.startsWith("4") || code.startsWith("5");
        if (error) {
            response.setContent(new Content().addMediaType(PROBLEM_JSON,
                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"))));
        } else if (response.getContent() != null) {
            response.getContent().remove(PROBLEM_JSON);
        }
    }

    @SuppressWarnings("rawtypes")
    private static Schema problemSchema() {
        String tracks = "#/components/schemas/" + TRACKS;
        return new ObjectSchema()
                .description("RFC 9457 problem details. type, title and status are always present; the "
                        + "extension members present depend on the type: parameter and allowedRange name an "
                        + "offending request parameter; line, column or byteOffset the position where an upload "
                        + "failed; accounting, requested and remaining an exhausted budget; the others the "
                        + "resource or the limit involved.")
                .addProperty("type", new StringSchema().format("uri").example(ProblemType.BASE_URI + "invalid-parameter"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri"))
                .addProperty("parameter", new StringSchema().description("The offending request parameter"))
                .addProperty("allowedRange", new StringSchema().description("The values the parameter accepts"))
                .addProperty("line", new IntegerSchema().format("int64").description("1-based line of an upload"))
                .addProperty("column", new IntegerSchema().description("1-based column (field) of an upload"))
                .addProperty("byteOffset", new IntegerSchema().format("int64").description("Byte offset in a binary upload"))
                .addProperty("accounting", new StringSchema().description("The dataset's accounting mode"))
                .addProperty("requested", new Schema<>().$ref(tracks).description("What the query would charge"))
                .addProperty("remaining", new Schema<>().$ref(tracks).description("What the budget has left"))
                .addProperty("state", new StringSchema().description("The job's state"))
                .addProperty("jobId", new StringSchema().format("uuid"))
                .addProperty("datasetId", new StringSchema().format("uuid"))
                .addProperty("releaseId", new StringSchema().format("uuid"))
                .addProperty("rows", new IntegerSchema().format("int64").description("The dataset's rows"))
                .addProperty("cols", new IntegerSchema().format("int64").description("The dataset's columns"))
                .addProperty("maxCols", new IntegerSchema().format("int64").description("The mechanism's column limit"))
                .addProperty("vertices", new IntegerSchema().format("int64").description("The graph's vertices"))
                .addProperty("supported", new ArraySchema().items(new StringSchema())
                        .description("The media types accepted"))
                .addProperty("limitBytes", new IntegerSchema().format("int64").description("The size limit"))
                .addProperty("retryAfterSeconds", new IntegerSchema().format("int64")
                        .description("When to retry (also in Retry-After)"))
                .required(List.of("type", "title", "status"));
    }

    /** Budget-track amounts (rho, epsilon, delta), as quotes show them; defined here if no operation uses it. */
    @SuppressWarnings("rawtypes")
    private static Schema tracksSchema() {
        return new ObjectSchema()
                .description("Amounts on the tracks the accounting mode uses (ZCDP: rho and delta; BASIC: epsilon "
                        + "and delta; PURE: epsilon). Doubles in shortest form; the exact decimal amounts are "
                        + "rounded so that no rounding favours the analyst: charges, spent and reserved amounts up, "
                        + "caps and remaining amounts down (README, Numbers)")
                .addProperty("rho", new NumberSchema().format("double"))
                .addProperty("epsilon", new NumberSchema().format("double"))
                .addProperty("delta", new NumberSchema().format("double"));
    }
}
