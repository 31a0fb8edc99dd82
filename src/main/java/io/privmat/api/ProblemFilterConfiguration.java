package io.privmat.api;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Problem details wherever an error can arise outside the MVC exception handling: {@link ProblemFilter}
 * around Spring Security's filters (order −100) and inside the audit filter (−200), and Tomcat's own
 * error report ({@link ProblemErrorReportValve}); what Spring Security's request firewall refuses,
 * with its reason ({@link FirewallRejections}); {@code Retry-After} on every 503 ({@link RetryAfter}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ProblemFilterConfiguration {

    /** Between the audit filter and Spring Security's chain. */
    static final int ORDER = -150;

    /** Requests Tomcat refuses before the application: reported by {@link ProblemErrorReportValve}. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReportValve() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }

    /** Outermost: sees the status of every response, including Spring Security's and the actuator's. */
    @Bean
    FilterRegistrationBean<RetryAfter.Filter> retryAfterFilter() {
        FilterRegistrationBean<RetryAfter.Filter> registration = new FilterRegistrationBean<>(new RetryAfter.Filter());
        registration.setOrder(org.springframework.core.Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Picked up by Spring Security's filter chain proxy in place of its plain 400. */
    @Bean
    org.springframework.security.web.firewall.RequestRejectedHandler requestRejectedHandler() {
        return new FirewallRejections();
    }

    @Bean
    FilterRegistrationBean<ProblemFilter> problemFilter() {
        FilterRegistrationBean<ProblemFilter> registration = new FilterRegistrationBean<>(new ProblemFilter());
        registration.setOrder(ORDER);
        return registration;
    }
}
