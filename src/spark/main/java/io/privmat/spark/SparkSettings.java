package io.privmat.spark;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Spark engine settings ({@code privmat.spark.*}).
 *
 * @param enabled false: no engine even in the Spark-enabled build (EXTERNAL queries are refused)
 * @param master {@code local[*]} (embedded, the default), {@code local[2]}, {@code spark://host:7077}
 *     (standalone) or {@code k8s://https://…} (Kubernetes)
 * @param appName the Spark application name
 * @param conf further Spark properties, passed as they are (e.g. {@code spark.executor.memory},
 *     {@code spark.jars}, {@code spark.hadoop.fs.s3a.endpoint})
 * @param treeDepth depth of the tree aggregation of partition sums (2: √p partial merges)
 * @param rowBlock rows per block sent to the service for the row-stream mechanisms
 */
@ConfigurationProperties("privmat.spark")
public record SparkSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("local[*]") String master,
        @DefaultValue("privmat") String appName,
        @DefaultValue({}) Map<String, String> conf,
        @DefaultValue("2") int treeDepth,
        @DefaultValue("4096") int rowBlock) {}
