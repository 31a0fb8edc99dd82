package io.privmat;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package rules of README.md ("Layout"), enforced. */
class ArchitectureTest {

    private static final Set<String> CAPABILITIES =
            Set.of("privacy", "mechanism", "dataset", "ledger", "job", "query", "release", "security", "api", "config", "problem",
                    "metrics", "ui",
                    "stream");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.privmat");
    }

    @Test
    void privacyAndMechanismArePureJava() {
        noClasses().that().resideInAnyPackage("io.privmat.privacy..", "io.privmat.mechanism..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "jakarta.persistence..", "jakarta.servlet..", "com.fasterxml..",
                        "tools.jackson..", "org.slf4j..", "org.apache.logging..", "ch.qos.logback..",
                        "java.util.logging..", "java.sql..", "javax.sql..")
                .check(classes);
    }

    @Test
    void privacyDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("io.privmat.privacy..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.privmat.privacy..",
                        "org.jspecify..")
                .check(classes);
    }

    @Test
    void mechanismUsesOnlyPrivacyAndLinearAlgebra() {
        classes().that().resideInAPackage("io.privmat.mechanism..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.crypto..", "io.privmat.mechanism..",
                        "io.privmat.privacy..", "org.ejml..", "dev.ludovic.netlib..", "org.netlib.util..", "org.jspecify..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void noRandomOutsideNoiseSources() {
        noClasses().should().dependOnClassesThat().haveFullyQualifiedName("java.util.Random")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
                .orShould().callMethod(Math.class, "random")
                .check(classes);
    }

    /**
     * Sub-packages are a capability's internals: other capabilities use only its top-level package
     * (except the pure-Java libraries privacy and mechanism, whose families are sub-packages).
     */
    @Test
    void capabilitiesDoNotReachIntoEachOthersInternals() {
        classes().should(new ArchCondition<JavaClass>("use other capabilities only through their top-level package") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String from = capability(origin.getPackageName());
                origin.getDirectDependenciesFromSelf().forEach(dependency -> {
                    String target = dependency.getTargetClass().getPackageName();
                    String to = capability(target);
                    // privacy and mechanism are libraries: their sub-packages (noise, covariance, …) are public.
                    boolean library = to != null && (to.equals("privacy") || to.equals("mechanism"));
                    if (to != null && !to.equals(from) && !library && !target.equals("io.privmat." + to)) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                    }
                });
            }
        }).check(classes);
    }

    @Test
    void everyCapabilityIsKnown() {
        classes().that().resideInAPackage("io.privmat.*..").should(new ArchCondition<JavaClass>("be in a known capability") {
            @Override
            public void check(JavaClass item, ConditionEvents events) {
                String capability = capability(item.getPackageName());
                if (capability != null && !CAPABILITIES.contains(capability)) {
                    events.add(SimpleConditionEvent.violated(item, item.getName() + " is in unknown package "
                            + capability));
                }
            }
        }).check(classes);
    }

    private static String capability(String packageName) {
        if (!packageName.startsWith("io.privmat.")) {
            return null;
        }
        String rest = packageName.substring("io.privmat.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
