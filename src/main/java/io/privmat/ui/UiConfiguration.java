package io.privmat.ui;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the dashboard: {@code /ui} and {@code /ui/} show {@code /ui/index.html}, and every {@code /ui}
 * response carries {@link #CONTENT_SECURITY_POLICY}: scripts, styles and connections from this origin
 * only, no inline script or style, no framing, no form posts, no plugins.
 */
@Configuration(proxyBeanMethods = false)
public class UiConfiguration implements WebMvcConfigurer {

    /** The policy of every /ui response. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'";

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/ui", "/ui/");
        registry.addViewController("/ui/").setViewName("forward:/ui/index.html");
    }

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> uiHeaders() {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
                response.setHeader("Referrer-Policy", "no-referrer");
                response.setHeader("X-Content-Type-Options", "nosniff");
                response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
                chain.doFilter(request, response);
            }
        });
        registration.addUrlPatterns("/ui", "/ui/*");
        registration.setOrder(-250);
        return registration;
    }
}
