package io.privmat.fault;

import io.privmat.PrivmatApplication;
import java.io.IOException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

/**
 * A privmat replica in its own JVM for the fault suite: the service plus {@link FaultHandlers}. The
 * test classpath is scanned too, so test-only configuration (and everything nested in it) is
 * excluded from scanning, as in test contexts.
 */
public final class ReplicaMain {

    private ReplicaMain() {}

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(PrivmatApplication.class, FaultHandlers.class);
        application.addInitializers(context -> context.getBeanFactory()
                .registerSingleton(TestOnly.class.getName(), new TestOnly()));
        application.run(args);
    }

    /** Excludes {@code @TestConfiguration} classes, test classes, and classes nested in either. */
    static final class TestOnly extends TypeExcludeFilter {
        @Override
        public boolean match(MetadataReader reader, MetadataReaderFactory factory) throws IOException {
            var metadata = reader.getAnnotationMetadata();
            if (metadata.isAnnotated("org.springframework.boot.test.context.TestConfiguration")
                    || metadata.hasAnnotatedMethods("org.junit.jupiter.api.Test")) {
                return true;
            }
            String enclosing = reader.getClassMetadata().getEnclosingClassName();
            return enclosing != null && match(factory.getMetadataReader(enclosing), factory);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TestOnly;
        }

        @Override
        public int hashCode() {
            return TestOnly.class.hashCode();
        }
    }
}
