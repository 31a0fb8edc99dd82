package io.privmat.security;

import io.privmat.api.ProblemResponses;
import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import io.privmat.security.jdbc.AuditRepository;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

/**
 * Who may call what. Public: health probes, the OpenAPI document, Swagger UI and the web dashboard's
 * static files (/ui). Everything else
 * needs an API key, and every route has an explicit role rule; anything unlisted is denied (and the
 * authorization matrix test fails for an endpoint without a rule). Object-level checks — a
 * dataset's owner, an analyst's grants, a job's submitter — are made by the capabilities and
 * answer 404 so that existence does not leak.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class SecurityConfiguration {

    private static final String OWNER = "OWNER";
    private static final String ANALYST = "ANALYST";
    private static final String ADMIN = "ADMIN";

    /**
     * No observation per security filter, authentication and authorization: Spring Security would
     * otherwise wrap each of the chain's dozen filters in a Micrometer observation on every request
     * (about a tenth of a small request's CPU, docs/benchmarks.md "Admissions"), and nothing reads
     * them — requests are still timed as a whole ({@code http.server.requests}) and refusals counted
     * by {@code ProblemMetricsFilter}.
     */
    @Bean
    static org.springframework.security.config.observation.SecurityObservationSettings securityObservations() {
        return org.springframework.security.config.observation.SecurityObservationSettings.noObservations();
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, ApiKeyService keys, SecuritySettings settings,
            org.springframework.context.ApplicationContext context) throws Exception {
        http.csrf(c -> c.disable())
                .httpBasic(b -> b.disable())
                .formLogin(f -> f.disable())
                .logout(l -> l.disable())
                .requestCache(r -> r.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .addFilterBefore(new ApiKeyAuthenticationFilter(keys), AnonymousAuthenticationFilter.class)
                .addFilterAfter(new RateLimitFilter(settings), ApiKeyAuthenticationFilter.class)
                .addFilterAfter(new RequestSizeLimitFilter(settings), RateLimitFilter.class)
                .addFilterAfter(new FreeWorkFilter(settings), RequestSizeLimitFilter.class)
                .exceptionHandling(e -> e
                        .authenticationEntryPoint((request, response, ex) -> {
                            response.setHeader("WWW-Authenticate", "Bearer");
                            ProblemResponses.write(request, response, ProblemType.UNAUTHENTICATED,
                                    "Send an API key as 'Authorization: Bearer <key>'.", ProblemProperties.none());
                        })
                        .accessDeniedHandler((request, response, ex) -> ProblemResponses.write(request, response,
                                ProblemType.FORBIDDEN, "This API key's role may not call this endpoint.", ProblemProperties.none())))
                .authorizeHttpRequests(a -> a
                        // The second dispatch of a streamed response (the owner's prediction export): the
                        // request itself was authorised on its first dispatch, by the rules below.
                        .dispatcherTypeMatchers(jakarta.servlet.DispatcherType.ASYNC).permitAll()
                        .requestMatchers("/error").permitAll()
                        .requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/**").permitAll()
                        // Which BLAS runs and why (README "Quick start"): nothing else is contributed to it.
                        .requestMatchers(HttpMethod.GET, "/actuator/info").permitAll()
                        .requestMatchers(HttpMethod.GET, "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml",
                                "/swagger-ui.html", "/swagger-ui/**").permitAll()
                        // The web dashboard's static pages: no key; every API call they make needs one.
                        .requestMatchers(HttpMethod.GET, "/ui", "/ui/", "/ui/**").permitAll()
                        .requestMatchers(HttpMethod.GET, "/actuator/**").hasRole(ADMIN)
                        .requestMatchers("/v1/api-keys", "/v1/api-keys/**").hasRole(ADMIN)
                        .requestMatchers(HttpMethod.GET, "/v1/audit").hasRole(ADMIN)
                        .requestMatchers(HttpMethod.GET, "/v1/me").hasAnyRole(OWNER, ANALYST, ADMIN)
                        .requestMatchers(HttpMethod.POST, "/v1/datasets").hasRole(OWNER)
                        .requestMatchers(HttpMethod.PUT, "/v1/datasets/*/data").hasRole(OWNER)
                        .requestMatchers(HttpMethod.DELETE, "/v1/datasets/*").hasRole(OWNER)
                        .requestMatchers("/v1/datasets/*/grants", "/v1/datasets/*/grants/**").hasRole(OWNER)
                        .requestMatchers(HttpMethod.POST, "/v1/datasets/*/queries", "/v1/datasets/*/queries/quote",
                                "/v1/datasets/*/queries/inverse-quote", "/v1/datasets/*/queries/dry-run")
                                .hasAnyRole(OWNER, ANALYST)
                        // Streams: the owner appends; the owner or a granted analyst subscribes.
                        .requestMatchers(HttpMethod.POST, "/v1/datasets/*/rows").hasRole(OWNER)
                        .requestMatchers(HttpMethod.POST, "/v1/datasets/*/subscriptions",
                                "/v1/datasets/*/subscriptions/quote").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.GET, "/v1/datasets/*/subscriptions").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.GET, "/v1/subscriptions/*", "/v1/subscriptions/*/releases",
                                "/v1/subscriptions/*/releases/*").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.DELETE, "/v1/subscriptions/*").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.GET, "/v1/datasets", "/v1/datasets/*", "/v1/datasets/*/budget")
                                .hasAnyRole(OWNER, ANALYST)
                        // Allocations (docs/accounting.md §10): the owner and ADMIN set them; an analyst sees its own.
                        .requestMatchers(HttpMethod.GET, "/v1/datasets/*/allocations").hasAnyRole(OWNER, ANALYST, ADMIN)
                        .requestMatchers(HttpMethod.PUT, "/v1/datasets/*/allocations/*").hasAnyRole(OWNER, ADMIN)
                        .requestMatchers(HttpMethod.DELETE, "/v1/datasets/*/allocations/*").hasAnyRole(OWNER, ADMIN)
                        // The privacy record: also for ADMIN (audit), and for owners after deletion.
                        .requestMatchers(HttpMethod.GET, "/v1/datasets/*/ledger", "/v1/datasets/*/transparency")
                                .hasAnyRole(OWNER, ANALYST, ADMIN)
                        // Its verification and head: the owner and ADMIN, who see every entry anyway.
                        .requestMatchers(HttpMethod.GET, "/v1/datasets/*/ledger/verify", "/v1/datasets/*/ledger/head")
                        .hasAnyRole(OWNER, ADMIN)
                        // The job list: each role sees its own scope (JobService.list).
                        .requestMatchers(HttpMethod.GET, "/v1/jobs").hasAnyRole(OWNER, ANALYST, ADMIN)
                        .requestMatchers(HttpMethod.GET, "/v1/jobs/*", "/v1/jobs/*/result").hasAnyRole(OWNER, ANALYST)
                        // A completion's per-user rows: the data owner only (docs/mechanisms/completion.md).
                        .requestMatchers(HttpMethod.GET, "/v1/jobs/*/predictions", "/v1/jobs/*/users/*/predictions",
                                "/v1/jobs/*/user-predictions")
                        .hasRole(OWNER)
                        .requestMatchers(HttpMethod.DELETE, "/v1/jobs/*").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.GET, "/v1/releases/*").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.POST, "/v1/releases/*/directional-variance", "/v1/releases/*/cuts",
                                "/v1/releases/*/regression", "/v1/releases/*/sparse-pca",
                                "/v1/releases/*/nonnegative-pca", "/v1/releases/*/low-rank",
                                "/v1/releases/*/linear-queries")
                                .hasAnyRole(OWNER, ANALYST)
                        // Workloads are public query batches: any owner or analyst uploads, reads and uses them.
                        .requestMatchers("/v1/workloads", "/v1/workloads/*").hasAnyRole(OWNER, ANALYST)
                        // Strategies are public artifacts of LINEAR_QUERIES: started on a visible dataset, read by anyone.
                        .requestMatchers(HttpMethod.POST, "/v1/datasets/*/strategies").hasAnyRole(OWNER, ANALYST)
                        .requestMatchers(HttpMethod.GET, "/v1/strategies/*").hasAnyRole(OWNER, ANALYST)
                        // No handler at any method: let the dispatcher answer 404 rather than 403.
                        .requestMatchers(new UnmappedRoute(context)).authenticated()
                        .anyRequest().denyAll());
        return http.build();
    }

    /** The audit filter runs before Spring Security's chain, so refused calls are recorded too. */
    @Bean
    FilterRegistrationBean<AuditFilter> auditFilter(AuditRepository audit, Clock clock, AuditDrain drain) {
        FilterRegistrationBean<AuditFilter> registration = new FilterRegistrationBean<>(
                new AuditFilter(audit, clock, drain));
        registration.setOrder(-200);
        registration.addUrlPatterns("/v1/*");
        return registration;
    }
}
