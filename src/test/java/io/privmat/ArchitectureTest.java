package io.privmat;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package rules of README.md ("Layout"), enforced. */
class ArchitectureTest {

    private static final Set<String> CAPABILITIES =
            Set.of("privacy", "mechanism", "dataset", "ledger", "job", "query", "release", "security", "api", "config", "problem",
                    "metrics", "plan", "ui",
                    "stream", "strategy", "spark", "hashing", "concurrent", "json");

    /** Leaves every capability may use (docs/architecture.md, "The allowed arrows"): JDK only. */
    static final Set<String> LEAVES = Set.of("hashing", "concurrent", "json");

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
                        "io.privmat.hashing..", "io.privmat.concurrent..", "org.jspecify..")
                .check(classes);
    }

    @Test
    void mechanismUsesOnlyPrivacyAndLinearAlgebra() {
        classes().that().resideInAPackage("io.privmat.mechanism..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.crypto..", "io.privmat.mechanism..",
                        "io.privmat.privacy..", "io.privmat.hashing..", "io.privmat.concurrent..", "io.privmat.json..", "org.ejml..", "dev.ludovic.netlib..", "org.netlib.util..", "org.jspecify..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void leavesDependOnTheJdkOnly() {
        for (String leaf : LEAVES) {
            classes().that().resideInAPackage("io.privmat." + leaf + "..")
                    .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.privmat." + leaf + "..",
                            "org.jspecify..")
                    .check(classes);
        }
    }

    /**
     * The service has one mechanism catalogue, a Spring bean its services take by constructor
     * (docs/architecture.md, "The mechanism catalogue"): only its configuration asks for the loaded one.
     */
    @Test
    void onlyTheConfigurationAsksForTheStandardCatalogue() {
        noClasses().that().doNotHaveFullyQualifiedName("io.privmat.config.MechanismCatalogConfiguration")
                .and().doNotHaveFullyQualifiedName("io.privmat.mechanism.catalog.MechanismCatalog")
                .should().callMethod("io.privmat.mechanism.catalog.MechanismCatalog", "standard")
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

    /**
     * Which capability may use which (docs/architecture.md, "Allowed arrows"): the dependency graph of
     * the capabilities, from every class's direct dependencies, must be a subgraph of this table. A new
     * arrow is a design decision: add it here, with a reason in the docs, or do without it.
     */
    static final Map<String, Set<String>> ALLOWED = allowed();


    private static Map<String, Set<String>> allowed() {
        Map<String, Set<String>> a = new TreeMap<>();
        a.put("privacy", Set.of());
        a.put("problem", Set.of());
        a.put("ui", Set.of());
        a.put("mechanism", Set.of("privacy"));
        a.put("metrics", Set.of("privacy"));
        // RegressionDocument renders a mechanism's result type; NativeBlasReport reads the BLAS facade.
        a.put("api", Set.of("mechanism", "privacy", "problem"));
        a.put("config", Set.of("mechanism"));
        a.put("security", Set.of("api", "config", "problem"));
        a.put("dataset", Set.of("api", "config", "mechanism", "metrics", "privacy", "problem", "security"));
        a.put("ledger", Set.of("api", "dataset", "privacy", "problem", "security"));
        a.put("job", Set.of("api", "config", "dataset", "ledger", "metrics", "privacy", "problem", "security"));
        // The plan's stored documents (spec codec, loss document, request hash), shared by query and stream.
        a.put("plan", Set.of("api", "mechanism", "privacy"));
        a.put("strategy", Set.of("mechanism", "problem", "security"));
        a.put("release", Set.of("api", "dataset", "mechanism", "problem", "security", "strategy"));
        a.put("query", Set.of("api", "dataset", "job", "ledger", "mechanism", "plan", "privacy", "problem",
                "release", "security", "strategy"));
        a.put("stream", Set.of("api", "dataset", "job", "ledger", "mechanism", "metrics", "plan", "privacy",
                "problem", "query", "release", "security"));
        // The Spark engine (its own build profile) implements the dataset SPI over the mechanism library.
        a.put("spark", Set.of("dataset", "mechanism", "privacy"));
        LEAVES.forEach(leaf -> a.put(leaf, Set.of()));
        return a;
    }

    @Test
    void capabilitiesUseOnlyTheirAllowedArrowsAndFormNoNewCycle() {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JavaClass origin : classes) {
            String from = capability(origin.getPackageName());
            if (from == null) {
                continue;
            }
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            origin.getDirectDependenciesFromSelf().forEach(dependency -> {
                String to = capability(dependency.getTargetClass().getPackageName());
                if (to != null && !to.equals(from)) {
                    graph.get(from).add(to);
                }
            });
        }
        StringBuilder unexpected = new StringBuilder();
        graph.forEach((from, tos) -> tos.forEach(to -> {
            if (!ALLOWED.getOrDefault(from, Set.of()).contains(to) && !LEAVES.contains(to)) {
                unexpected.append(from).append(" -> ").append(to).append('\n');
            }
        }));
        assertThat(unexpected.toString()).as("arrows not in the allowed table; the graph is %s", graph).isEmpty();
        assertThat(cycle(graph)).as("a cycle between capabilities").isEmpty();
    }

    /**
     * The mechanism library's sub-packages (docs/architecture.md, "Inside mechanism"): the framework
     * ({@code catalog}) uses the shared layers below it and no family; each family uses the framework
     * and the layers, and the families' own arrows are listed. The measured graph must be a subgraph
     * of this table and have no cycle. {@code mechanism} is the package's own top level.
     */
    static final Map<String, Set<String>> MECHANISM_ALLOWED = mechanismAllowed();

    private static Map<String, Set<String>> mechanismAllowed() {
        Set<String> layers = Set.of("mechanism", "noise", "linalg", "analytics");
        Map<String, Set<String>> a = new TreeMap<>();
        a.put("noise", Set.of());
        a.put("linalg", Set.of());
        a.put("mechanism", Set.of("noise"));
        a.put("analytics", Set.of("linalg"));
        a.put("catalog", layers);
        a.put("linear", with(layers, "catalog"));
        a.put("sums", with(layers, "catalog"));
        a.put("covariance", with(layers, "catalog"));
        a.put("sketch", with(layers, "catalog"));
        a.put("regression", with(layers, "catalog"));
        // Orbit sampling draws with the covariance family's Bingham sampler.
        a.put("lowrank", with(layers, "catalog", "covariance"));
        // Entry-level low rank runs Hardt–Roth and randomized response on a ratings matrix.
        a.put("completion", with(layers, "catalog", "lowrank"));
        // Window releases are covariance answers; graph streams state the sketch's intervals.
        a.put("window", with(layers, "catalog", "covariance", "sketch"));
        return a;
    }

    private static Set<String> with(Set<String> base, String... more) {
        Set<String> out = new TreeSet<>(base);
        out.addAll(List.of(more));
        return out;
    }

    @Test
    void mechanismSubPackagesUseOnlyTheirAllowedArrowsAndFormNoCycle() {
        checkSubPackages("mechanism", MECHANISM_ALLOWED);
    }

    /**
     * The query capability's sub-packages, one job each (docs/architecture.md, "Inside query"):
     * {@code query} is the package's own top level, the request and its planning, which the jobs
     * use; stored workloads and rendering use no other part; the HTTP adapter uses the jobs it serves
     * and no job uses it. The measured graph must be a subgraph of this table and have no cycle.
     */
    static final Map<String, Set<String>> QUERY_ALLOWED = queryAllowed();

    private static Map<String, Set<String>> queryAllowed() {
        Map<String, Set<String>> a = new TreeMap<>();
        a.put("workload", Set.of());
        // Rendering writes the result type the top level holds (subscriptions write it too).
        a.put("render", Set.of("query"));
        // Planning resolves a request's stored workload (ServiceArtifacts).
        a.put("query", Set.of("workload"));
        a.put("admission", Set.of("query"));
        a.put("prediction", Set.of("query"));
        // A dry run is planned here and rendered as a job's result would be.
        a.put("dryrun", Set.of("query", "render"));
        a.put("execution", Set.of("query", "render"));
        // The warm-up renders its synthetic release so that the result path is compiled.
        a.put("warmup", Set.of("render"));
        a.put("web", Set.of("query", "admission", "dryrun", "prediction", "workload"));
        return a;
    }

    @Test
    void querySubPackagesUseOnlyTheirAllowedArrowsAndFormNoCycle() {
        checkSubPackages("query", QUERY_ALLOWED);
    }

    /**
     * The graph of {@code io.privmat.<root>}'s sub-packages (its top level named {@code root}) must be
     * a subgraph of {@code allowed} and have no cycle.
     */
    private static void checkSubPackages(String root, Map<String, Set<String>> allowed) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JavaClass origin : classes) {
            String from = subPackage(root, origin.getPackageName());
            if (from == null) {
                continue;
            }
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            origin.getDirectDependenciesFromSelf().forEach(dependency -> {
                String to = subPackage(root, dependency.getTargetClass().getPackageName());
                if (to != null && !to.equals(from)) {
                    graph.get(from).add(to);
                }
            });
        }
        StringBuilder unexpected = new StringBuilder();
        graph.forEach((from, tos) -> tos.forEach(to -> {
            if (!allowed.getOrDefault(from, Set.of()).contains(to)) {
                unexpected.append(from).append(" -> ").append(to).append('\n');
            }
        }));
        assertThat(unexpected.toString()).as("%s arrows not in the allowed table; the graph is %s", root, graph)
                .isEmpty();
        assertThat(cycle(graph)).as("a cycle between %s sub-packages", root).isEmpty();
    }

    /** The first sub-package of io.privmat.{@code root} ({@code root} for the package itself), or null. */
    private static String subPackage(String root, String packageName) {
        String base = "io.privmat." + root;
        if (packageName.equals(base)) {
            return root;
        }
        if (!packageName.startsWith(base + ".")) {
            return null;
        }
        String rest = packageName.substring(base.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /**
     * Code names project classes through imports, so that a file's dependencies are all in its head
     * (issue 31: 166 inline {@code io.privmat.…} names hid them). Comments may name classes in full.
     */
    @Test
    void codeNamesProjectClassesByImportNotInline() throws IOException {
        Pattern inline = Pattern.compile("(?<![\\w.\"])io\\.privmat\\.(?:[a-z][a-z0-9]*\\.)+[A-Z]");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    boolean comment = line.startsWith("*") || line.startsWith("//") || line.startsWith("/*");
                    boolean head = line.startsWith("import ") || line.startsWith("package ");
                    if (!comment && !head && inline.matcher(line).find()) {
                        found.add(file + ":" + (i + 1) + ": " + line);
                    }
                }
            }
        }
        assertThat(found).as("inline fully qualified project names (import them)").isEmpty();
    }

    /** A cycle of the graph as "a -> b -> a", or "" when there is none (depth-first search). */
    static String cycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new HashMap<>();
        Deque<String> path = new ArrayDeque<>();
        for (String start : graph.keySet()) {
            String found = visit(start, graph, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return "";
    }

    private static String visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state,
            Deque<String> path) {
        Integer s = state.get(node);
        if (s != null && s == 2) {
            return "";
        }
        if (s != null && s == 1) {
            List<String> loop = new ArrayList<>(path);
            Collections.reverse(loop);
            int at = loop.indexOf(node);
            return String.join(" -> ", loop.subList(at, loop.size())) + " -> " + node;
        }
        state.put(node, 1);
        path.push(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            String found = visit(next, graph, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        path.pop();
        state.put(node, 2);
        return "";
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
