package io.privmat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Entry point of the privmat service. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PrivmatApplication {

    public static void main(String[] args) {
        SpringApplication.run(PrivmatApplication.class, args);
    }
}
