package io.privmat.spark;

import com.codahale.metrics.MetricRegistry;
import java.util.Properties;
import org.apache.spark.SparkConf;
import org.apache.spark.metrics.sink.MetricsServlet;
import org.sparkproject.jetty.servlet.ServletContextHandler;

/**
 * Spark's metrics servlet without its HTTP handlers. Spark builds them at start even without a UI,
 * and its shaded Jetty needs Servlet 5 classes that the service's Servlet 6.1 (Tomcat 11) no longer
 * has; the service has no Spark UI to attach them to anyway.
 */
public class NoMetricsServlet extends MetricsServlet {

    public NoMetricsServlet(Properties property, MetricRegistry registry) {
        super(property, registry);
    }

    @Override
    public ServletContextHandler[] getHandlers(SparkConf conf) {
        return new ServletContextHandler[0];
    }
}
