package io.privmat.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI document's header; the paths come from the controllers. */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

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
                .servers(List.of(new Server().url("/").description("this server")));
    }
}
