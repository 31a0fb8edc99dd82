package io.privmat.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** helm lint --strict and helm template (default and non-default values), asserting on the manifests. */
class HelmChartTest {

    private static final Path CHART = Path.of("helm/privmat");
    private static final List<String> ACTUATOR_PATHS = List.of("/actuator/health/liveness", "/actuator/health/readiness");

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> render(Map<String, Object> values) {
        var command = new Helm(CHART).template().withName("rel").withNamespace("analytics");
        values.forEach(command::set);
        String yaml = command.call();
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml().loadAll(yaml)) {
            if (doc != null) {
                docs.add((Map<String, Object>) doc);
            }
        }
        return docs;
    }

    private static Optional<Map<String, Object>> find(List<Map<String, Object>> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.get("kind"))).findFirst();
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            if (current instanceof List<?> list) {
                current = list.get(Integer.parseInt(key));
            } else {
                current = ((Map<String, Object>) current).get(key);
            }
        }
        return (T) current;
    }

    @Test
    void lintsStrictly() {
        LintResult result = new Helm(CHART).lint().strict().call();
        assertThat(result.isFailed()).as(String.join("\n", result.getMessages())).isFalse();
    }

    @Test
    void defaultManifests() {
        List<Map<String, Object>> docs = render(Map.of());
        assertThat(docs.stream().map(d -> (String) d.get("kind")).toList())
                .contains("Deployment", "Service", "ConfigMap", "ServiceAccount", "PodDisruptionBudget")
                .doesNotContain("HorizontalPodAutoscaler", "Ingress", "ServiceMonitor", "Secret");
        Map<String, Object> deployment = find(docs, "Deployment").orElseThrow();
        assertThat((Integer) at(deployment, "spec", "replicas")).isEqualTo(2);
        Map<String, Object> container = at(deployment, "spec", "template", "spec", "containers", "0");
        assertThat((String) at(container, "image")).isEqualTo("ghcr.io/privmat/privmat:0.1.0");
        // Probes on real actuator health groups, on the container's port.
        assertThat((String) at(container, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat((String) at(container, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        assertThat((String) at(container, "startupProbe", "httpGet", "path")).isIn(ACTUATOR_PATHS);
        assertThat((Integer) at(container, "ports", "0", "containerPort")).isEqualTo(8080);
        // Security context: non-root, read-only root, no escalation, capabilities dropped, writable /tmp.
        assertThat((Boolean) at(deployment, "spec", "template", "spec", "securityContext", "runAsNonRoot")).isTrue();
        assertThat((Integer) at(deployment, "spec", "template", "spec", "securityContext", "runAsUser")).isEqualTo(10001);
        assertThat((Boolean) at(container, "securityContext", "readOnlyRootFilesystem")).isTrue();
        assertThat((Boolean) at(container, "securityContext", "allowPrivilegeEscalation")).isFalse();
        assertThat((List<String>) at(container, "securityContext", "capabilities", "drop")).containsExactly("ALL");
        List<Map<String, Object>> mounts = at(container, "volumeMounts");
        assertThat(mounts).anySatisfy(m -> assertThat(m.get("mountPath")).isEqualTo("/tmp"));
        // Credentials come from the existing Secret named in values.
        List<Map<String, Object>> env = at(container, "env");
        Map<String, Object> password = env.stream().filter(e -> "SPRING_DATASOURCE_PASSWORD".equals(e.get("name")))
                .findFirst().orElseThrow();
        assertThat((String) at(password, "valueFrom", "secretKeyRef", "name")).isEqualTo("privmat-database");
        assertThat((String) at(password, "valueFrom", "secretKeyRef", "key")).isEqualTo("password");
        // The ConfigMap carries the privmat.* settings and disables the embedded database.
        String application = at(find(docs, "ConfigMap").orElseThrow(), "data", "application.yaml");
        Map<String, Object> config = new Yaml().load(application);
        assertThat((Boolean) at(config, "privmat", "embedded-postgres", "enabled")).isFalse();
        assertThat((String) at(config, "privmat", "ingest", "max-upload-size")).isEqualTo("2GB");
        assertThat((Integer) at(config, "privmat", "security", "requests-per-second")).isEqualTo(50);
        assertThat(env).noneSatisfy(e -> assertThat(e.get("name")).isEqualTo("PRIVMAT_BOOTSTRAP_ADMIN_KEY"));
        assertThat((Integer) at(config, "privmat", "jobs", "max-attempts")).isEqualTo(3);
        assertThat((String) at(config, "spring", "datasource", "url")).startsWith("jdbc:postgresql://");
        assertThat((Integer) at(find(docs, "PodDisruptionBudget").orElseThrow(), "spec", "minAvailable")).isEqualTo(1);
        // Shutdown: the pod's grace outlasts the drain phase plus auditing and closing the pools, and
        // the upload and job graces fit in the drain phase (docs/reliability.md).
        int grace = at(deployment, "spec", "template", "spec", "terminationGracePeriodSeconds");
        String drain = at(config, "spring", "lifecycle", "timeout-per-shutdown-phase");
        int drainSeconds = Integer.parseInt(drain.replace("s", ""));
        assertThat(grace).isGreaterThan(drainSeconds + 15);
        assertThat(seconds(at(config, "privmat", "jobs", "shutdown-grace"))).isLessThan(drainSeconds);
        assertThat(seconds(at(config, "privmat", "ingest", "shutdown-grace"))).isLessThan(drainSeconds);
        // Uploads stay below the request pool; sparse uploads are bounded by their body.
        assertThat((Integer) at(config, "privmat", "ingest", "max-concurrent-uploads"))
                .isLessThan((Integer) at(config, "spring", "datasource", "hikari", "maximum-pool-size"));
        assertThat((String) at(config, "privmat", "ingest", "max-dense-size")).isEqualTo("2GB");
        assertThat((Integer) at(config, "privmat", "ingest", "max-rows-per-body-byte")).isEqualTo(4);
    }

    private static int seconds(String duration) {
        return Integer.parseInt(duration.replace("s", ""));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theGrafanaDashboardIsAConfigMapOfValidJsonOverPrivmatMetrics() {
        assertThat(render(Map.of()).stream().filter(d -> "ConfigMap".equals(d.get("kind")))
                .map(d -> (String) at(d, "metadata", "name"))).noneMatch(n -> n.endsWith("-grafana-dashboard"));
        Map<String, Object> map = render(Map.of("grafanaDashboard.enabled", "true")).stream()
                .filter(d -> "ConfigMap".equals(d.get("kind"))
                        && ((String) at(d, "metadata", "name")).endsWith("-grafana-dashboard"))
                .findFirst().orElseThrow();
        assertThat((String) at(map, "metadata", "labels", "grafana_dashboard")).isEqualTo("1");
        String json = at(map, "data", "privmat.json");
        Map<String, Object> dashboard = tools.jackson.databind.json.JsonMapper.builder().build().readValue(json, Map.class);
        List<Map<String, Object>> panels = (List<Map<String, Object>>) dashboard.get("panels");
        assertThat(panels).hasSizeGreaterThanOrEqualTo(8);
        String exprs = panels.stream().flatMap(p -> ((List<Map<String, Object>>) p.get("targets")).stream())
                .map(t -> (String) t.get("expr")).reduce("", String::concat);
        for (String metric : new String[] {"privmat_jobs{", "privmat_jobs_admitted_total", "privmat_problems_total",
                "privmat_jobs_duration_seconds", "privmat_jobs_queue_wait_seconds", "privmat_jobs_failures_total",
                "privmat_ingest_bytes_total", "privmat_ingest_rows_total", "privmat_budget_remaining",
                "privmat_budget_cap"}) {
            assertThat(exprs).as(metric).contains(metric);
        }
    }

    @Test
    void aGracePeriodShorterThanTheDrainFailsToRender() {
        assertThatThrownBy(() -> render(Map.of("shutdown.terminationGracePeriodSeconds", "40")))
                .hasMessageContaining("terminationGracePeriodSeconds must exceed");
    }

    @Test
    void nonDefaultValuesFlowThrough() {
        List<Map<String, Object>> docs = render(Map.ofEntries(
                Map.entry("autoscaling.enabled", "true"),
                Map.entry("autoscaling.minReplicas", "3"),
                Map.entry("autoscaling.maxReplicas", "9"),
                Map.entry("ingress.enabled", "true"),
                Map.entry("ingress.hosts[0].host", "dp.example.org"),
                Map.entry("ingress.hosts[0].paths[0].path", "/"),
                Map.entry("ingress.hosts[0].paths[0].pathType", "Prefix"),
                Map.entry("serviceMonitor.enabled", "true"),
                Map.entry("serviceMonitor.bearerTokenSecret.name", "privmat-admin"),
                Map.entry("bootstrapAdminKey.existingSecret", "privmat-admin"),
                Map.entry("database.existingSecret", ""),
                Map.entry("database.password", "s3cret"),
                Map.entry("database.url", "jdbc:postgresql://managed.example:5432/pm?sslmode=require"),
                Map.entry("config.jobs.worker-threads", "8"),
                Map.entry("image.tag", "1.2.3")));
        Map<String, Object> deployment = find(docs, "Deployment").orElseThrow();
        assertThat((Object) at(deployment, "spec", "replicas")).isNull(); // the HPA owns replicas
        Map<String, Object> hpa = find(docs, "HorizontalPodAutoscaler").orElseThrow();
        assertThat((Integer) at(hpa, "spec", "minReplicas")).isEqualTo(3);
        assertThat((Integer) at(hpa, "spec", "maxReplicas")).isEqualTo(9);
        assertThat((String) at(hpa, "spec", "scaleTargetRef", "name")).isEqualTo(at(deployment, "metadata", "name"));
        assertThat((String) at(find(docs, "Ingress").orElseThrow(), "spec", "rules", "0", "host")).isEqualTo("dp.example.org");
        assertThat((String) at(find(docs, "ServiceMonitor").orElseThrow(), "spec", "endpoints", "0", "path"))
                .isEqualTo("/actuator/prometheus");
        assertThat((String) at(find(docs, "ServiceMonitor").orElseThrow(), "spec", "endpoints", "0", "authorization",
                "credentials", "name")).isEqualTo("privmat-admin");
        Map<String, Object> secret = find(docs, "Secret").orElseThrow();
        assertThat((String) at(secret, "stringData", "password")).isEqualTo("s3cret");
        Map<String, Object> container = at(deployment, "spec", "template", "spec", "containers", "0");
        List<Map<String, Object>> env = at(container, "env");
        assertThat(env).anySatisfy(e -> {
            assertThat(e.get("name")).isEqualTo("SPRING_DATASOURCE_PASSWORD");
            assertThat((String) at(e, "valueFrom", "secretKeyRef", "name")).isEqualTo(at(secret, "metadata", "name"));
        });
        assertThat((String) at(container, "image")).endsWith(":1.2.3");
        assertThat(env).anySatisfy(e -> {
            assertThat(e.get("name")).isEqualTo("PRIVMAT_BOOTSTRAP_ADMIN_KEY");
            assertThat((String) at(e, "valueFrom", "secretKeyRef", "name")).isEqualTo("privmat-admin");
        });
        String application = at(find(docs, "ConfigMap").orElseThrow(), "data", "application.yaml");
        assertThat((Integer) at(new Yaml().load(application), "privmat", "jobs", "worker-threads")).isEqualTo(8);
        assertThat(application).contains("managed.example");
    }

    @Test
    void sparkIsOffByDefaultAndTheStandaloneClusterRendersWhenAsked() {
        String off = at(find(render(Map.of()), "ConfigMap").orElseThrow(), "data", "application.yaml");
        assertThat((Boolean) at(new Yaml().load(off), "privmat", "spark", "enabled")).isFalse();
        List<Map<String, Object>> docs = render(Map.of("spark.enabled", "true", "spark.standalone.enabled", "true",
                "spark.standalone.workers", "3", "image.repository", "ghcr.io/privmat/privmat-spark",
                "external.allowedLocations[0]", "s3a://lake/privmat/",
                "spark.conf.spark\\.executor\\.memory", "6g"));
        Map<String, Object> config = new Yaml().load((String) at(find(docs, "ConfigMap").orElseThrow(), "data",
                "application.yaml"));
        assertThat((Boolean) at(config, "privmat", "spark", "enabled")).isTrue();
        assertThat((String) at(config, "privmat", "spark", "master")).isEqualTo("spark://rel-privmat-spark-master:7077");
        Map<String, Object> conf = at(config, "privmat", "spark", "conf");
        assertThat(conf).containsEntry("[spark.driver.host]", "${PRIVMAT_POD_IP}")
                .containsEntry("[spark.driver.port]", "7078").containsEntry("[spark.executor.memory]", "6g")
                .containsEntry("[spark.executor.extraClassPath]", "/app/BOOT-INF/classes");
        assertThat((List<String>) at(config, "privmat", "external", "allowed-locations")).containsExactly("s3a://lake/privmat/");
        List<Map<String, Object>> deployments = docs.stream().filter(d -> "Deployment".equals(d.get("kind"))).toList();
        assertThat(deployments).hasSize(3);
        Map<String, Object> worker = deployments.stream().filter(d -> ((String) at(d, "metadata", "name"))
                .endsWith("-spark-worker")).findFirst().orElseThrow();
        assertThat((Integer) at(worker, "spec", "replicas")).isEqualTo(3);
        Map<String, Object> workerContainer = at(worker, "spec", "template", "spec", "containers", "0");
        assertThat((String) at(workerContainer, "image")).isEqualTo("ghcr.io/privmat/privmat-spark:0.1.0");
        assertThat((List<String>) at(workerContainer, "args")).first().isEqualTo("spark://rel-privmat-spark-master:7077");
        // Spark's Jetty needs the Servlet 5 API ahead of the service's Servlet 6.1 (the image carries it).
        assertThat((List<String>) at(workerContainer, "command")).containsSubsequence("-cp",
                "/app/spark-daemon-lib/*:/app/BOOT-INF/classes:/app/BOOT-INF/lib/*");
        // The Spark pods are not behind the privmat Service (its selector must not match them).
        Map<String, Object> service = docs.stream().filter(d -> "Service".equals(d.get("kind"))
                && "rel-privmat".equals(at(d, "metadata", "name"))).findFirst().orElseThrow();
        Map<String, Object> selector = at(service, "spec", "selector");
        Map<String, Object> workerLabels = at(worker, "spec", "template", "metadata", "labels");
        assertThat(workerLabels.entrySet().containsAll(selector.entrySet())).as("worker labels " + workerLabels
                + " matched by the privmat Service's selector " + selector).isFalse();
        // The driver (each privmat pod) advertises its pod IP on fixed ports.
        Map<String, Object> privmat = deployments.stream().filter(d -> "rel-privmat".equals(at(d, "metadata", "name")))
                .findFirst().orElseThrow();
        List<Map<String, Object>> env = at(privmat, "spec", "template", "spec", "containers", "0", "env");
        assertThat(env).anySatisfy(e -> {
            assertThat(e.get("name")).isEqualTo("PRIVMAT_POD_IP");
            assertThat((String) at(e, "valueFrom", "fieldRef", "fieldPath")).isEqualTo("status.podIP");
        });
    }

    @Test
    void aMissingPasswordWithoutExistingSecretFailsToRender() {
        assertThatThrownBy(() -> render(Map.of("database.existingSecret", "")))
                .hasMessageContaining("database.password is required");
    }
}
