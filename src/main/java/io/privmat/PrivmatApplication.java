package io.privmat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Entry point of the privmat service. Spring Security's in-memory user (and its "generated security
 * password" log line) is excluded: every caller authenticates with an API key.
 */
@SpringBootApplication(excludeName = "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration")
@ConfigurationPropertiesScan
public class PrivmatApplication {

    public static void main(String[] args) {
        SpringApplication.run(PrivmatApplication.class, args);
    }
}
