package io.privmat.metrics;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Registers the problem counter outside the security chain (which answers 401, 403 and 429 itself). */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    FilterRegistrationBean<ProblemMetricsFilter> problemMetricsFilter(ServiceMetrics metrics) {
        FilterRegistrationBean<ProblemMetricsFilter> registration = new FilterRegistrationBean<>(
                new ProblemMetricsFilter(metrics));
        registration.setOrder(-300);
        registration.addUrlPatterns("/v1/*");
        return registration;
    }
}
