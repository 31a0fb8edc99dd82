package io.privmat.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
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

    @Bean
    OpenAPI privmatOpenApi() {
        return new OpenAPI()
                .info(new Info().title("privmat")
                        .version("v1")
                        .description("Privacy-budgeted matrix analytics. Data owners upload matrices and graphs "
                                + "with a differential-privacy budget; analysts receive only outputs of published "
                                + "DP mechanisms, each charged to the budget. Errors are RFC 9457 problem details "
                                + "with types under " + ProblemType.BASE_URI + ".")
                        .license(new License().name("Apache-2.0")))
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
            openApi.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                if (operation.getResponses() == null) {
                    return;
                }
                // Every operation needs a key and is rate limited.
                operation.getResponses().putIfAbsent("401", new ApiResponse().description("No, or an invalid, API key"));
                operation.getResponses().putIfAbsent("403", new ApiResponse().description("The key's role may not call this"));
                operation.getResponses().putIfAbsent("429", new ApiResponse().description("Rate limit exceeded (Retry-After)"));
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
        return new ObjectSchema()
                .description("RFC 9457 problem details. Extension members name the offending parameter "
                        + "(parameter, allowedRange) or the position in an upload (line, column, byteOffset).")
                .addProperty("type", new StringSchema().format("uri").example(ProblemType.BASE_URI + "invalid-parameter"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri"))
                .addProperty("parameter", new StringSchema())
                .addProperty("allowedRange", new StringSchema())
                .addProperty("line", new IntegerSchema().format("int64"))
                .addProperty("column", new IntegerSchema())
                .addProperty("byteOffset", new IntegerSchema().format("int64"));
    }
}
