package io.privmat.api;

import io.privmat.problem.PrivmatException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Header checks that apply to every route: an {@code Idempotency-Key} is 1–200 printable ASCII
 * characters (0x20–0x7E) as the contract says; a TAB or any other control or non-ASCII character
 * is a 400, not a key that only some clients can repeat byte for byte.
 */
@Configuration(proxyBeanMethods = false)
class RequestHeaderChecks implements WebMvcConfigurer {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new HandlerInterceptor() {
            @Override
            public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
                String key = request.getHeader(IDEMPOTENCY_KEY);
                if (key != null && !key.isEmpty() && TextChecks.firstInvalid(key, true) >= 0) {
                    throw PrivmatException.invalidParameter(IDEMPOTENCY_KEY, "1–200 printable ASCII characters",
                            "Idempotency-Key must have 1–200 printable ASCII characters (no TAB or control characters)");
                }
                return true;
            }
        });
    }
}
